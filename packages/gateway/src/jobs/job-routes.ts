import type { Hono } from 'hono';
import type { GatewayRuntime } from '../runtime/gateway-runtime.js';

/** The gateway-native async jobs API (see job-handle.ts). */
export function registerJobRoutes(_app: Hono, _runtime: GatewayRuntime): void {}
