import type { ProviderTransport } from '@tokenforge/model-protocol';
import { AGENT_CLI_PROTOCOL_FAMILY } from '@tokenforge/provider-adapters';
import { agentCliTransportOf, type AgentCliRunLog } from './agent-cli-transport.js';
import { createHttpProviderTransport, MIN_REDACTED_SECRET_LENGTH, type HttpProviderTransport, type HttpTransportCredentials } from '@tokenforge/http-transport';
import type { ProtocolCapabilityV2, ProtocolCapabilityV3, ProtocolFamily, TaskKindV2 } from '@tokenforge/model-protocol';
import { createProtocolEngineTargetBindingV1, type ProtocolEngineDispatchTargetV1, type ProtocolEngineTargetBindingV1 } from '@tokenforge/protocol-engine';
import type { TokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { FAMILIES_ECHOING_IDEMPOTENCY_KEY } from '../catalogue/families-echoing-idempotency-key.js';
import { capabilityOfTarget } from '../catalogue/family-capability-defaults.js';
import { DEFAULT_TARGET_MAX_CONNECTIONS, type GatewayCatalogueV1, type GatewayTargetV1 } from '../catalogue/gateway-catalogue-v1.js';
import { clientKeyDigest } from '../http/client-key-digest.js';
import { explainBaseUrlRefusal } from './explain-base-url-refusal.js';
import { GatewayConfigurationError } from './gateway-configuration-error.js';

/** One catalogue target, ready to serve: its binding over a transport of its own. */
export interface RuntimeTarget {
  /** `<model>#<index>`: how the operator log and job handles name it. */
  readonly ref: string;
  readonly provider: string;
  readonly family: ProtocolFamily;
  /** As the catalogue declares it: V2, or V3 when it names a structured-output mode. */
  readonly capability: ProtocolCapabilityV2 | ProtocolCapabilityV3;
  readonly binding: ProtocolEngineTargetBindingV1;
  readonly execution: 'sync' | 'async';
  /**
   * Async targets: whether the provider echoes the gateway's owner-tagged idempotency key on listed jobs, so a
   * recovery can keep exactly the caller's jobs (see {@link FAMILIES_ECHOING_IDEMPOTENCY_KEY}).
   */
  readonly echoesIdempotencyKey: boolean;
  /** The catalogue's `passRateLimitHeaders` opt-in: the client of a matching dialect sees this target's rate limits. */
  readonly passRateLimitHeaders: boolean;
}

/** A public model with its targets in order. */
export interface RuntimeModel {
  readonly name: string;
  readonly taskKind: TaskKindV2;
  readonly targets: readonly RuntimeTarget[];
}

/** A client key, resolved. */
export interface RuntimeClientKey {
  /** The catalogue id of the key (how the operator log names the client). */
  readonly id: string;
  /** The key's UTF-8 bytes. */
  readonly key: Uint8Array;
  /** SHA-256 of {@link RuntimeClientKey.key}, what a presented key is compared with. */
  readonly digest: Uint8Array;
}

/** The catalogue with every secret read from the environment. */
export interface ResolvedCatalogue {
  readonly models: ReadonlyMap<string, RuntimeModel>;
  readonly targets: ReadonlyMap<string, RuntimeTarget>;
  readonly clientKeys: readonly RuntimeClientKey[];
  readonly signingKey: Uint8Array | undefined;
  /** What the operator should fix although the gateway can run (start-up writes each to the operator log). */
  readonly warnings: readonly CatalogueWarning[];
  /** Closes every target transport. */
  close(): Promise<void>;
}

/** A catalogue fact the gateway runs with but the operator should fix. Never holds a secret's value. */
export interface CatalogueWarning {
  /** `short-provider-secret`: a provider secret too short to be redacted from provider error bodies and headers. */
  readonly code: 'short-provider-secret';
  /** Where in the catalogue, e.g. `models.0.targets.1.credentials.apiKeyEnv`. */
  readonly path: string;
  readonly message: string;
}

type Environment = Readonly<Record<string, string | undefined>>;

function credentialsOf(target: GatewayTargetV1 & { credentials: NonNullable<GatewayTargetV1['credentials']> }, env: Environment, path: string, problems: string[], warnings: CatalogueWarning[]): HttpTransportCredentials | undefined {
  const read = (name: string, field: string): string | undefined => {
    const value = env[name];
    if (value === undefined || value.length === 0) problems.push(`${path}.credentials.${field}: the environment variable ${name} is not set`);
    else if (value.length < MIN_REDACTED_SECRET_LENGTH) {
      warnings.push({
        code: 'short-provider-secret',
        path: `${path}.credentials.${field}`,
        message: `the provider secret in ${name} is shorter than ${MIN_REDACTED_SECRET_LENGTH} characters, so it is not redacted from provider error bodies and headers (a short word like "none" would corrupt answers); if the provider checks keys, use a longer one`,
      });
    }
    return value;
  };
  if ('apiKeyEnv' in target.credentials) {
    const apiKey = read(target.credentials.apiKeyEnv, 'apiKeyEnv');
    return apiKey === undefined ? undefined : { type: 'api-key', apiKey };
  }
  const accessKey = read(target.credentials.accessKeyEnv, 'accessKeyEnv');
  const secretKey = read(target.credentials.secretKeyEnv, 'secretKeyEnv');
  return accessKey === undefined || secretKey === undefined ? undefined : { type: 'access-key', accessKey, secretKey };
}

/**
 * Reads the catalogue's secrets from `env` and builds one binding and transport per target. Every problem is
 * collected before {@link GatewayConfigurationError} is thrown, so one start reports them all.
 */
export function resolveCatalogue(catalogue: GatewayCatalogueV1, suite: TokenForgeProtocolSuiteV1, env: Environment, agentCliRunLog?: AgentCliRunLog): ResolvedCatalogue {
  const problems: string[] = [];
  const warnings: CatalogueWarning[] = [];
  const families = new Set(suite.registry.listProtocolFamilies());
  const asyncFamilies = new Set(suite.entries.filter((entry) => entry.execution === 'async').map((entry) => entry.protocolFamily));
  const transports: HttpProviderTransport[] = [];
  const models = new Map<string, RuntimeModel>();
  const targets = new Map<string, RuntimeTarget>();

  catalogue.models.forEach((model, modelIndex) => {
    const runtimeTargets: RuntimeTarget[] = [];
    model.targets.forEach((target, targetIndex) => {
      const path = `models.${modelIndex}.targets.${targetIndex}`;
      if (!families.has(target.family as ProtocolFamily)) {
        problems.push(`${path}.family: no adapter serves ${target.family}`);
        return;
      }
      const capability = capabilityOfTarget(target);
      if (!capability.taskKinds.includes(model.taskKind)) problems.push(`${path}: the target does not serve the model's task kind ${model.taskKind}`);
      if (capability.taskKinds.includes('embedding') && capability.embedding === undefined) problems.push(`${path}.capability.embedding: an embedding target needs its embedding space`);
      const family = target.family as ProtocolFamily;
      let transport: ProviderTransport;
      if (target.agentCli !== undefined || family === AGENT_CLI_PROTOCOL_FAMILY) {
        const built = agentCliTransportOf(target, env, path, problems, agentCliRunLog);
        if (built === undefined) return;
        transport = built;
      } else {
        if (target.baseUrl === undefined || target.credentials === undefined) {
          problems.push(`${path}: an HTTP target needs baseUrl and credentials`);
          return;
        }
        const credentials = credentialsOf(target as typeof target & { credentials: NonNullable<typeof target.credentials> }, env, path, problems, warnings);
        if (credentials === undefined) return;
        let httpTransport: HttpProviderTransport;
        try {
          httpTransport = createHttpProviderTransport({
            baseUrl: target.baseUrl,
            credentials,
            metadata: suite.transportMetadataFor(family),
            policy: {
              allowedAddressCategories: [
                ...(target.network?.allowLoopback === true ? (['loopback'] as const) : []),
                ...(target.network?.allowPrivate === true ? (['private'] as const) : []),
              ],
              allowInsecureHttpToLoopback: target.network?.allowLoopback === true,
              maxConnections: target.maxConnections ?? DEFAULT_TARGET_MAX_CONNECTIONS,
              ...(target.timeouts?.connectMs === undefined ? {} : { connectTimeoutMs: target.timeouts.connectMs }),
              ...(target.timeouts?.headersMs === undefined ? {} : { headersTimeoutMs: target.timeouts.headersMs }),
              ...(target.timeouts?.bodyIdleMs === undefined ? {} : { bodyIdleTimeoutMs: target.timeouts.bodyIdleMs }),
            },
          });
        } catch (error) {
          const code = error instanceof Error && 'code' in error ? String(error.code) : 'invalid';
          // The transport's messages are its own fixed texts (never a secret); the explanation adds the catalogue fix.
          const explained = explainBaseUrlRefusal(target);
          if (explained !== undefined) problems.push(`${path}.baseUrl: ${explained} (${code})`);
          else problems.push(`${path}: the transport refused the target: ${error instanceof Error ? error.message : 'invalid'} (${code})`);
          return;
        }
        transports.push(httpTransport);
        transport = httpTransport;
      }
      const ref = `${model.name}#${targetIndex}`;
      const runtimeTarget: RuntimeTarget = {
        ref,
        provider: target.provider,
        family,
        capability,
        execution: asyncFamilies.has(family) ? 'async' : 'sync',
        echoesIdempotencyKey: FAMILIES_ECHOING_IDEMPOTENCY_KEY.has(family),
        passRateLimitHeaders: target.passRateLimitHeaders === true,
        binding: createProtocolEngineTargetBindingV1({
          target: { provider: target.provider, providerModel: target.model, connectionRef: ref, capability } as ProtocolEngineDispatchTargetV1,
          bindTransport: () => transport,
        }),
      };
      runtimeTargets.push(runtimeTarget);
      targets.set(ref, runtimeTarget);
    });
    models.set(model.name, { name: model.name, taskKind: model.taskKind, targets: runtimeTargets });
  });

  const clientKeys: RuntimeClientKey[] = [];
  catalogue.clientKeys.forEach((clientKey, index) => {
    const value = env[clientKey.env];
    if (value === undefined || value.length < 8) problems.push(`clientKeys.${index}.env: the environment variable ${clientKey.env} is not set (or shorter than 8 characters)`);
    else {
      const key = new TextEncoder().encode(value);
      clientKeys.push({ id: clientKey.id, key, digest: clientKeyDigest(key) });
    }
  });

  let signingKey: Uint8Array | undefined;
  const needsJobs = [...targets.values()].some((target) => target.execution === 'async');
  if (catalogue.jobs !== undefined) {
    const value = env[catalogue.jobs.signingKeyEnv];
    if (value === undefined || value.length < 32) problems.push(`jobs.signingKeyEnv: the environment variable ${catalogue.jobs.signingKeyEnv} is not set (or shorter than 32 characters)`);
    else signingKey = new TextEncoder().encode(value);
  } else if (needsJobs) {
    problems.push('jobs: a model has an async target, so the catalogue needs jobs.signingKeyEnv');
  }

  const close = async (): Promise<void> => {
    await Promise.all(transports.map((transport) => transport.destroy()));
  };
  if (problems.length > 0) {
    void close();
    throw new GatewayConfigurationError(problems);
  }
  return { models, targets, clientKeys, signingKey, warnings, close };
}
