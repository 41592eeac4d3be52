import type { EgressCodecV1, EgressContextV1, PreparedMediaExecutionInputV2, ProtocolFamily, TaskEnvelopeV4 } from '@tokenforge/model-protocol';
import type { ProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { fitOpaqueStateToTarget, sealEgressOpaqueState, type OpaqueStateSeal, type TokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { DROPPED_CONTENT_HEADER, isGatewayItemId } from '../dialects/dropped-content.js';
import { DROPPED_TOOLS_HEADER, mergeNames } from '../dialects/dropped-hosted-tools.js';
import { fitCompactionTrigger } from '../dialects/fit-compaction-trigger.js';
import { fitTaskToTarget } from '../dialects/fit-task-to-target.js';
import { STRUCTURED_OUTPUT_HEADER, structuredOutputStrategyOf } from '../dialects/structured-output-header.js';
import type { AttemptEnding, AttemptMeter, RequestMetering } from '../governance/wiring/request-metering.js';
import { tenantRateLimitHeaders } from '../governance/wiring/tenant-rate-limit-headers.js';
import { egressRefusal, governanceRefusal } from '../pipeline/gateway-refusal.js';
import type { RequestScope } from '../pipeline/request-scope.js';
import { proceed, refuse, type StageOutcome } from '../pipeline/stage.js';
import { nextStepAfterFailure, waitFor, type AttemptBudget } from '../routing/attempt-policy.js';
import type { TargetRouter } from '../routing/target-router.js';
import type { RuntimeTarget } from '../runtime/resolve-catalogue.js';
import type { Attempted } from './attempted.js';
import { attemptTarget } from './attempt-target.js';
import { passedRateLimitHeaders } from './passed-rate-limit-headers.js';

/** What the attempt stage needs. */
export interface AttemptInput {
  readonly engine: Pick<ProtocolEngineV1, 'execute'>;
  readonly suite: Pick<TokenForgeProtocolSuiteV1, 'entries'>;
  /** The client's dialect family. */
  readonly clientFamily: ProtocolFamily;
  readonly now: () => number;
  readonly egress: EgressCodecV1;
  readonly context: EgressContextV1;
  /** Seals another family's opaque reasoning state for the client and verifies it on replay. */
  readonly opaqueStateSeal?: OpaqueStateSeal;
  readonly task: TaskEnvelopeV4;
  readonly preparedMedia: PreparedMediaExecutionInputV2 | undefined;
  /** The routed targets, in order. */
  readonly targets: readonly RuntimeTarget[];
  /** Hosted tools the ingress dropped. */
  readonly ingressDropped: readonly string[] | undefined;
  /** The client's names of the task's hosted tools. */
  readonly hostedNames: readonly string[] | undefined;
  readonly signal: AbortSignal;
  /** The most attempts and the most waiting between them. */
  readonly budget: AttemptBudget;
  readonly release: () => void;
  readonly end: (status: number, outcome: string) => void;
  /**
   * With governance: each attempt is admitted (reserved) before it is sent and settled once it ended; the tenant's
   * rate-limit headers replace the provider's passed ones when the tenant or key holds limits.
   */
  readonly metering?: RequestMetering | undefined;
  /** Counts each attempt's result in the target's health (absent: no routing state). */
  readonly router?: Pick<TargetRouter, 'begin'>;
  /** Failure codes the model lets fall back although they are not retryable. */
  readonly fallbackOn?: ReadonlySet<string>;
}

/** The client's answer from a target: a stream (`outcome: 'stream'`) or a whole response. */
export interface AttemptAnswer {
  readonly response: Response;
  /** The operator log outcome; `stream` when the stream ends the request itself. */
  readonly outcome: string;
}

/**
 * The targets in order through the engine, with retries and fallback as the attempt policy decides, only while no
 * byte reached the client. The answer carries the dropped-tools, dropped-content, passed rate-limit and
 * structured-output headers.
 */
export async function attemptStage(input: AttemptInput, scope: RequestScope): Promise<StageOutcome<AttemptAnswer>> {
  const { targets, signal, budget, metering } = input;
  const facts = scope.facts;
  const tenantHeaders = (): Record<string, string> =>
    metering?.state.limits === undefined ? {} : tenantRateLimitHeaders(input.suite, input.clientFamily, metering.state.limits, input.now());
  const passed = (target: RuntimeTarget, targetIndex: number): Record<string, string> =>
    metering?.limited === true
      ? tenantHeaders()
      : passedRateLimitHeaders({ suite: input.suite, clientFamily: input.clientFamily, target, targetIndex, rateLimits: facts.rateLimits, now: input.now });
  // A failed attempt's settlement waits for what follows: the request's last attempt releases the concurrency slot.
  let unsettled: { readonly meter: AttemptMeter; readonly ending: AttemptEnding } | undefined;
  const settleUnsettled = (releaseSlot: boolean): void => {
    unsettled?.meter.settle(unsettled.ending, releaseSlot);
    unsettled = undefined;
  };
  try {
    return await attemptTargets();
  } finally {
    settleUnsettled(true);
  }

  async function attemptTargets(): Promise<StageOutcome<AttemptAnswer>> {
    let last: Attempted | undefined;
    for (let index = 0; index < targets.length; index += 1) {
      const target = targets[index] as RuntimeTarget;
      let retriedHere = false;
      for (;;) {
        if (signal.aborted) return refuse(egressRefusal({ source: 'provider', failure: { code: 'timeout', retryable: true } }, 'cancelled'));
        budget.attemptsLeft -= 1;
        facts.target = target;
        // Hints the target does not declare are left out for it (hosted tools it does not run are named).
        const fitted = fitTaskToTarget(input.task, target.capability, input.hostedNames);
        facts.droppedHostedTools = mergeNames(input.ingressDropped, fitted.droppedHostedTools);
        facts.structuredOutput = structuredOutputStrategyOf(fitted.task, target.capability);
        let meter: AttemptMeter | undefined;
        if (metering !== undefined) {
          const admission = await metering.admit(target);
          if (admission.kind === 'refused') {
            return refuse(governanceRefusal(admission.code, admission.retryAfterMs, tenantHeaders()));
          }
          settleUnsettled(false);
          meter = admission.meter;
        }
        const attempted = input.router?.begin(target);
        // A stream keeps its target's in-flight count until it closes (when the stream releases the request).
        let streamEnded: (() => void) | undefined;
        const release = (): void => {
          streamEnded?.();
          input.release();
        };
        try {
          // Opaque reasoning state reaches only the family that produced it; another family's answer is sealed for the client.
          const seal = input.opaqueStateSeal;
          const opaque = fitOpaqueStateToTarget(fitted.task, { clientFamily: input.clientFamily, targetFamily: target.family, seal, isHostItemId: isGatewayItemId });
          const trigger = fitCompactionTrigger(opaque.task, input.clientFamily, target.family);
          facts.droppedContent = mergeNames(opaque.droppedParts.length === 0 ? undefined : opaque.droppedParts, trigger.dropped);
          // Another family's compaction in the answer is left out; a sync answer names it in its header, a stream in its log line.
          const onLeftOut = (partType: string): void => {
            facts.droppedContent = mergeNames(facts.droppedContent, [partType]);
          };
          const egress = sealEgressOpaqueState(input.egress, { sourceFamily: target.family, seal, onLeftOut });
          last = await attemptTarget(
            { engine: input.engine, egress, context: input.context, task: trigger.task, preparedMedia: input.preparedMedia, target, signal, release, end: input.end, meter },
            scope,
          );
        } catch (error) {
          attempted?.({ kind: 'failure', code: 'provider-error' });
          // A gateway fault (not an engine error): whether the provider served is unknown, so the reservation is
          // charged (`estimated`) now rather than held until the orphan sweep.
          meter?.settle({ reachedProvider: true, served: true, outcome: 'failed:gateway' }, true);
          throw error;
        }
        const ended = attempted?.(last.kind === 'answer' ? { kind: 'answer', streaming: last.outcome === 'stream' } : { kind: 'failure', code: last.failure.code });
        if (last.kind === 'answer' && last.outcome === 'stream') streamEnded = ended;
        if (last.kind === 'failure' && meter !== undefined) unsettled = { meter, ending: last.ending };
        if (last.kind === 'answer') {
          if (facts.droppedHostedTools !== undefined) last.response.headers.set(DROPPED_TOOLS_HEADER, facts.droppedHostedTools.join(', '));
          if (facts.droppedContent !== undefined) last.response.headers.set(DROPPED_CONTENT_HEADER, facts.droppedContent.join(', '));
          for (const [name, value] of Object.entries(passed(target, index))) last.response.headers.set(name, value);
          if (facts.structuredOutput !== undefined) last.response.headers.set(STRUCTURED_OUTPUT_HEADER, facts.structuredOutput);
          return proceed({ response: last.response, outcome: last.outcome });
        }
        const step = nextStepAfterFailure(last.failure, last.acceptance, budget, index + 1 < targets.length, retriedHere, input.fallbackOn);
        if (step.kind === 'retry-same') {
          budget.waitBudgetMs -= step.waitMs;
          retriedHere = true;
          await waitFor(step.waitMs, signal);
          continue;
        }
        if (step.kind === 'next-target') break;
        return refuse(egressRefusal({ source: 'provider', failure: last.failure }, `failed:${last.failure.code}`, passed(target, index)));
      }
    }
    if (last?.kind === 'failure') {
      const lastTarget = facts.target;
      const headers = lastTarget === undefined ? {} : passed(lastTarget, targets.indexOf(lastTarget));
      return refuse(egressRefusal({ source: 'provider', failure: last.failure }, `failed:${last.failure.code}`, headers));
    }
    return refuse(egressRefusal({ source: 'provider', failure: { code: 'provider-error', retryable: false } }, 'failed:no-target'));
  }
}
