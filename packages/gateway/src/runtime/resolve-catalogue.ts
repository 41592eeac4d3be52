import { createHash } from 'node:crypto';
import type { ProviderTransport } from '@tokenforge/model-protocol';
import { AGENT_CLI_PROTOCOL_FAMILY } from '@tokenforge/provider-adapters';
import { agentCliTransportOf, type AgentCliRunLog } from './agent-cli-transport.js';
import { createHttpProviderTransport, MIN_REDACTED_SECRET_LENGTH, type HttpProviderTransport, type HttpTransportCredentials } from '@tokenforge/http-transport';
import type { ProtocolCapabilityV2, ProtocolCapabilityV3, ProtocolFamily, TaskKindV2 } from '@tokenforge/model-protocol';
import { createProtocolEngineTargetBindingV1, type ProtocolEngineDispatchTargetV1, type ProtocolEngineTargetBindingV1 } from '@tokenforge/protocol-engine';
import type { TokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { FAMILIES_ECHOING_IDEMPOTENCY_KEY } from '../catalogue/families-echoing-idempotency-key.js';
import { capabilityOfTarget } from '../catalogue/family-capability-defaults.js';
import { DEFAULT_TARGET_MAX_CONNECTIONS, type GatewayBalanceV1, type GatewayCatalogueV1, type GatewayCooldownV1, type GatewayTargetV1 } from '../catalogue/gateway-catalogue-v1.js';
import { attemptTransport } from '../governance/wiring/attempt-id-header.js';
import { resolvePriceTableV1, type PriceTableV1 } from '../governance/v1/price-table-v1.js';
import { clientKeyDigest } from '../http/client-key-digest.js';
import { DEFAULT_COOLDOWN, type CooldownPolicy } from '../routing/target-health.js';
import { resolveAliases } from '../routing/resolve-aliases.js';
import { explainBaseUrlRefusal } from './explain-base-url-refusal.js';
import { GatewayConfigurationError } from './gateway-configuration-error.js';
import { readSecret } from './read-secret.js';

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
  /** The catalogue's price table of the target, resolved to micro-units (absent: not priced). */
  readonly price?: PriceTableV1;
  /** The model the target serves, its tier (default 0) and weight (default 1), and its cooldown policy (none: never cools down). */
  readonly routing?: { readonly model: string; readonly tier: number; readonly weight: number; readonly cooldown?: CooldownPolicy };
}

/** A public model with its targets in order. */
export interface RuntimeModel {
  readonly name: string;
  readonly taskKind: TaskKindV2;
  readonly targets: readonly RuntimeTarget[];
  /** How the model balances within a tier, and the failure codes it lets fall back (default: ordered, none). */
  readonly routing?: { readonly balance: GatewayBalanceV1; readonly fallbackOn: ReadonlySet<string> };
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
  /** Public models by name; an alias maps to the model it resolves to. */
  readonly models: ReadonlyMap<string, RuntimeModel>;
  readonly targets: ReadonlyMap<string, RuntimeTarget>;
  readonly clientKeys: readonly RuntimeClientKey[];
  readonly signingKey: Uint8Array | undefined;
  /** What the operator should fix although the gateway can run (start-up writes each to the operator log). */
  readonly warnings: readonly CatalogueWarning[];
  /** Closes every target transport. */
  close(): Promise<void>;
  /** Closes the transports of the given targets only (targets a reload retired). */
  closeTargets?(targets: Iterable<RuntimeTarget>): Promise<void>;
  /** The transport of one of its targets (a reload hands it to the new catalogue). */
  transportOf?(target: RuntimeTarget): HttpProviderTransport | undefined;
  /** Each target's identity: equal fingerprints mean an unchanged target (a reload keeps it, state and pool). */
  readonly fingerprints?: ReadonlyMap<RuntimeTarget, string>;
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
    const secret = readSecret(env, name);
    const value = secret !== undefined && 'value' in secret ? secret.value : undefined;
    if (secret === undefined) problems.push(`${path}.credentials.${field}: the environment variable ${name} (or ${name}_FILE) is not set`);
    else if ('problem' in secret) problems.push(`${path}.credentials.${field}: ${secret.problem}`);
    else if (value !== undefined && value.length < MIN_REDACTED_SECRET_LENGTH) {
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

function cooldownPolicy(cooldown: GatewayCooldownV1 | undefined): CooldownPolicy | undefined {
  if (cooldown === undefined) return undefined;
  return {
    failures: cooldown.failures ?? DEFAULT_COOLDOWN.failures,
    windowMs: cooldown.windowMs ?? DEFAULT_COOLDOWN.windowMs,
    cooldownMs: cooldown.cooldownMs ?? DEFAULT_COOLDOWN.cooldownMs,
    classes: new Set(cooldown.classes ?? DEFAULT_COOLDOWN.classes),
  };
}

/**
 * Reads the catalogue's secrets from `env` (a variable, or the file its `_FILE` variant names) and builds one
 * binding and transport per target. Every problem is collected before {@link GatewayConfigurationError} is thrown,
 * so one start reports them all. With `previous` (a reload), a target whose definition, routing and secrets are
 * unchanged is the very same object, with its transport (pool) and its routing state.
 */
export function resolveCatalogue(
  catalogue: GatewayCatalogueV1,
  suite: TokenForgeProtocolSuiteV1,
  env: Environment,
  previous?: ResolvedCatalogue,
  agentCliRunLog?: AgentCliRunLog,
): ResolvedCatalogue {
  const problems: string[] = [];
  const warnings: CatalogueWarning[] = [];
  const families = new Set(suite.registry.listProtocolFamilies());
  const asyncFamilies = new Set(suite.entries.filter((entry) => entry.execution === 'async').map((entry) => entry.protocolFamily));
  const transports = new Map<RuntimeTarget, HttpProviderTransport>();
  const created: HttpProviderTransport[] = [];
  const models = new Map<string, RuntimeModel>();
  const targets = new Map<string, RuntimeTarget>();
  const fingerprints = new Map<RuntimeTarget, string>();
  const reusable = new Map<string, { target: RuntimeTarget; transport: HttpProviderTransport | undefined }>();
  for (const [target, fingerprint] of previous?.fingerprints ?? []) reusable.set(fingerprint, { target, transport: previous?.transportOf?.(target) });

  catalogue.models.forEach((model, modelIndex) => {
    const runtimeTargets: RuntimeTarget[] = [];
    const cooldown = cooldownPolicy(model.routing?.cooldown ?? catalogue.routing?.cooldown);
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
      const isAgentCli = target.agentCli !== undefined || family === AGENT_CLI_PROTOCOL_FAMILY;
      if (!isAgentCli && (target.baseUrl === undefined || target.credentials === undefined)) {
        problems.push(`${path}: an HTTP target needs baseUrl and credentials`);
        return;
      }
      const credentials = isAgentCli ? undefined : credentialsOf(target as typeof target & { credentials: NonNullable<typeof target.credentials> }, env, path, problems, warnings);
      if (!isAgentCli && credentials === undefined) return;
      const fingerprint = createHash('sha256')
        .update(JSON.stringify([model.name, targetIndex, target, model.routing?.cooldown ?? catalogue.routing?.cooldown ?? null, credentials ?? null]))
        .digest('base64url');
      const kept = reusable.get(fingerprint);
      if (kept?.transport !== undefined) {
        reusable.delete(fingerprint);
        transports.set(kept.target, kept.transport);
        fingerprints.set(kept.target, fingerprint);
        runtimeTargets.push(kept.target);
        targets.set(kept.target.ref, kept.target);
        return;
      }
      let bound: ProviderTransport;
      let httpTransport: HttpProviderTransport | undefined;
      if (isAgentCli) {
        // A process transport is handed to its family as it is: the attempt id header is an HTTP matter.
        const built = agentCliTransportOf(target, env, path, problems, agentCliRunLog);
        if (built === undefined) return;
        bound = built;
      } else {
        try {
          httpTransport = createHttpProviderTransport({
            baseUrl: target.baseUrl as string,
            credentials: credentials as HttpTransportCredentials,
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
        created.push(httpTransport);
        bound = httpTransport;
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
        ...(target.price === undefined ? {} : { price: resolvePriceTableV1(target.price) }),
        routing: { model: model.name, tier: target.routing?.tier ?? 0, weight: target.routing?.weight ?? 1, ...(cooldown === undefined ? {} : { cooldown }) },
        binding: createProtocolEngineTargetBindingV1({
          target: { provider: target.provider, providerModel: target.model, connectionRef: ref, capability } as ProtocolEngineDispatchTargetV1,
          // A metered attempt's HTTP requests carry its attempt id (a process transport gets none).
          bindTransport: httpTransport === undefined ? () => bound : (signal) => attemptTransport(bound, signal),
        }),
      };
      if (httpTransport !== undefined) transports.set(runtimeTarget, httpTransport);
      fingerprints.set(runtimeTarget, fingerprint);
      runtimeTargets.push(runtimeTarget);
      targets.set(ref, runtimeTarget);
    });
    const currencies = new Set(model.targets.flatMap((target) => (target.price === undefined ? [] : [target.price.currency])));
    if (currencies.size > 1) problems.push(`models.${modelIndex}.targets: the prices of one model's targets must share one currency`);
    models.set(model.name, {
      name: model.name,
      taskKind: model.taskKind,
      targets: runtimeTargets,
      routing: { balance: model.routing?.balance ?? 'ordered', fallbackOn: new Set(model.routing?.fallbackOn ?? []) },
    });
  });
  for (const resolved of resolveAliases(catalogue.aliases ?? {}, new Set(catalogue.models.map((model) => model.name)))) {
    const model = 'model' in resolved ? models.get(resolved.model) : undefined;
    if (model !== undefined) models.set(resolved.alias, model);
  }

  const clientKeys: RuntimeClientKey[] = [];
  catalogue.clientKeys.forEach((clientKey, index) => {
    const secret = readSecret(env, clientKey.env);
    const value = secret !== undefined && 'value' in secret ? secret.value : undefined;
    if (secret !== undefined && 'problem' in secret) problems.push(`clientKeys.${index}.env: ${secret.problem}`);
    else if (value === undefined || value.length < 8) problems.push(`clientKeys.${index}.env: the environment variable ${clientKey.env} (or ${clientKey.env}_FILE) is not set (or shorter than 8 characters)`);
    else {
      const key = new TextEncoder().encode(value);
      clientKeys.push({ id: clientKey.id, key, digest: clientKeyDigest(key) });
    }
  });

  let signingKey: Uint8Array | undefined;
  const needsJobs = [...targets.values()].some((target) => target.execution === 'async');
  if (catalogue.jobs !== undefined) {
    const secret = readSecret(env, catalogue.jobs.signingKeyEnv);
    const value = secret !== undefined && 'value' in secret ? secret.value : undefined;
    if (secret !== undefined && 'problem' in secret) problems.push(`jobs.signingKeyEnv: ${secret.problem}`);
    else if (value === undefined || value.length < 32) problems.push(`jobs.signingKeyEnv: the environment variable ${catalogue.jobs.signingKeyEnv} (or ${catalogue.jobs.signingKeyEnv}_FILE) is not set (or shorter than 32 characters)`);
    else signingKey = new TextEncoder().encode(value);
  } else if (needsJobs) {
    problems.push('jobs: a model has an async target, so the catalogue needs jobs.signingKeyEnv');
  }

  if (problems.length > 0) {
    // Only what this call created: a reused transport still serves the catalogue in force.
    void Promise.all(created.map((transport) => transport.destroy()));
    throw new GatewayConfigurationError(problems);
  }
  const closeTargets = async (closing: Iterable<RuntimeTarget>): Promise<void> => {
    await Promise.all([...closing].map((target) => transports.get(target)?.destroy()));
  };
  return {
    models,
    targets,
    clientKeys,
    signingKey,
    warnings,
    close: () => closeTargets(transports.keys()),
    closeTargets,
    fingerprints,
    transportOf: (target) => transports.get(target),
  };
}
