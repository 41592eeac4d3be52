/**
 * The host side every guide example shares: what an application does once at start-up (build the suite and the
 * engine) and per request (resolve a target, bind a credential-bound transport).
 *
 * The "provider" is the loopback provider simulator of the acceptance package, started in this process. It speaks
 * the real wire protocols at their real paths with each provider's auth scheme, so everything below the engine
 * (adapters, codecs, `@tokenforge/http-transport`, sockets) runs exactly as it would against a provider. The
 * simulator also reads the wire model name as a scenario (`error.429.2`, `mid-stream-error`, `text.40`), which is
 * how the examples provoke failures.
 */
import { createHttpProviderTransport, type HttpProviderTransport } from '@tokenforge/http-transport';
import type { ProtocolCapabilityV2, ProtocolFamily, ProviderTransport } from '@tokenforge/model-protocol';
import {
  createProtocolEngineTargetBindingV1,
  createProtocolEngineV1,
  type ProtocolEngineTargetBindingV1,
  type ProtocolEngineV1,
} from '@tokenforge/protocol-engine';
import { createBuiltinTokenForgeProtocolSuiteV1, type TokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
// The simulator is test tooling of the private acceptance package, not a published API.
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/acceptance';

/** What a host's catalogue resolves for one request: the dispatch facts of the chosen target. */
export interface GuideTarget {
  /** The model name put on the wire. */
  readonly providerModel: string;
  /** The target's declared capability: the engine checks every task against it before any network. */
  readonly capability: ProtocolCapabilityV2;
}

/** The engine, the simulator and a way to bind targets to transports. */
export interface GuideHost {
  readonly engine: ProtocolEngineV1;
  readonly suite: TokenForgeProtocolSuiteV1;
  readonly simulator: ProviderSimulator;
  /**
   * Binds a target to this host's connection for its family. `wrapTransport` lets an example put a decorator
   * around the real transport (the async example uses one to lose an answer on purpose).
   */
  bind(target: GuideTarget, wrapTransport?: (transport: ProviderTransport) => ProviderTransport): ProtocolEngineTargetBindingV1;
  /** Closes the transports, then the simulator. */
  close(): Promise<void>;
}

/** Options of {@link startGuideHost}. */
export interface StartGuideHostOptions {
  /** How long simulated async jobs stay queued and running, in milliseconds. */
  readonly jobTimings?: { readonly queuedMs: number; readonly runningMs: number };
}

/** Starts the simulator and builds the engine over the builtin suite. */
export async function startGuideHost(options: StartGuideHostOptions = {}): Promise<GuideHost> {
  const simulator = await startProviderSimulator({ port: 0, ...(options.jobTimings === undefined ? {} : { jobTimings: options.jobTimings }) });

  // Once per process: the suite holds every builtin family; the engine snapshots its family list and is shared by
  // every request and tenant (it holds no per-request state).
  const suite = createBuiltinTokenForgeProtocolSuiteV1();
  const engine = createProtocolEngineV1({ registry: suite.registry });

  // One transport per provider connection, kept for reuse (warm sockets). A real host keys this by tenant and
  // connection and reads the secret from its vault; here the simulator hands out its test credentials.
  const transports = new Map<ProtocolFamily, HttpProviderTransport>();
  function transportFor(family: ProtocolFamily): HttpProviderTransport {
    const existing = transports.get(family);
    if (existing !== undefined) return existing;
    const baseUrl = simulator.baseUrlFor(family);
    const credentials = simulator.credentialsFor(family);
    if (baseUrl === undefined || credentials === undefined) throw new Error(`the simulator does not serve ${family}`);
    const transport = createHttpProviderTransport({
      baseUrl,
      credentials,
      // The family's auth scheme and fixed headers, declared by its suite entry.
      metadata: suite.transportMetadataFor(family),
      // The defaults allow only https to public addresses. A loopback simulator over plain http must be allowed
      // explicitly; a production host leaves both switches off.
      policy: { allowedAddressCategories: ['loopback'], allowInsecureHttpToLoopback: true },
    });
    transports.set(family, transport);
    return transport;
  }

  return {
    engine,
    suite,
    simulator,
    bind(target, wrapTransport) {
      const family = target.capability.protocolFamily;
      const connectionRef = `simulator/${family}`;
      return createProtocolEngineTargetBindingV1({
        target: {
          provider: 'provider-simulator', // identity data only: the engine never branches on it
          providerModel: target.providerModel,
          connectionRef, // which credentials and base URL this target uses
          capability: target.capability,
        },
        // Called by the engine only after every input and capability check passed, with the target's own
        // connection reference (any other is refused before this runs).
        bindTransport: () => {
          const transport = transportFor(family);
          return wrapTransport === undefined ? transport : wrapTransport(transport);
        },
      });
    },
    async close() {
      await Promise.all([...transports.values()].map((transport) => transport.close()));
      await simulator.close();
    },
  };
}
