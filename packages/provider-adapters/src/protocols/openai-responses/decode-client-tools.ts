import type { HostedToolV3, ToolDefinitionV3 as ToolDefinitionV2 } from '@tokenforge/model-protocol';
import { readDomainList } from '../../codec-kit/index.js';
import { createToolNameCheck } from '../../codec-kit/tool-name-check.js';
import {
  invalidClientField,
  isClientObject,
  optionalClientArray,
  optionalClientBoolean,
  optionalClientObject,
  optionalClientString,
  requiredClientString,
  unsupportedClientField,
} from '../openai-common/client-json.js';

/** The one string property a freeform (`custom`) tool's text travels in when it is offered as a function. */
export const OPENAI_RESPONSES_FREEFORM_INPUT_PROPERTY = 'input';

/** Hosted tools a client may offer that run at the provider: dropped from the offered tools (see below). */
const HOSTED_TOOL_TYPES: ReadonlySet<string> = new Set([
  'web_search',
  'web_search_preview',
  'web_search_2025_08_26',
  'web_search_preview_2025_03_11',
  'file_search',
  'code_interpreter',
  'image_generation',
  'computer_use_preview',
  'local_shell',
  'mcp',
  'tool_search',
]);

/** The web search tool types, read as the task's hosted `web-search` tool. */
const WEB_SEARCH_TOOL_TYPES: ReadonlySet<string> = new Set(['web_search', 'web_search_preview', 'web_search_2025_08_26', 'web_search_preview_2025_03_11']);

/** The client's tools as the task offers them. */
export interface DecodedClientTools {
  /** Function tools, freeform tools wrapped as functions, in declaration order. */
  readonly tools: ToolDefinitionV2[];
  /** Names of the freeform tools (their calls go back to the client as `custom_tool_call` items). */
  readonly freeformToolNames: string[];
  /** Types of the hosted tools that were dropped (kinds the task does not normalize). */
  readonly droppedHostedTools: string[];
  /** Hosted tools the task normalizes (web search), in declaration order. */
  readonly hostedTools: HostedToolV3[];
  /** The client's types of `hostedTools`, in the same order. */
  readonly hostedToolNames: string[];
}

function freeformDescription(tool: Record<string, unknown>, path: string): string | undefined {
  const description = optionalClientString(tool, 'description', `${path}.`);
  const format = optionalClientObject(tool, 'format', `${path}.`);
  if (format === undefined || format.type === 'text') return description;
  if (format.type !== 'grammar') throw invalidClientField(`${path}.format.type`, 'must be text or grammar');
  const syntax = requiredClientString(format, 'syntax', `${path}.format.`);
  const definition = requiredClientString(format, 'definition', `${path}.format.`);
  const rule = `The ${OPENAI_RESPONSES_FREEFORM_INPUT_PROPERTY} must follow this ${syntax} grammar:\n${definition}`;
  return description === undefined || description.length === 0 ? rule : `${description}\n\n${rule}`;
}

/**
 * Reads `tools` (and the tools of `additional_tools` input items) into task tools.
 *
 * - `function` tools: name, description, `parameters` (none means no arguments), `strict` (absent means true, the
 *   Responses default), `defer_loading` (kept as `deferLoading`).
 * - `namespace` groups are flattened: their tools are offered by their own names. A name offered twice (also across
 *   namespaces) is refused as `invalid-request` by the kit's `createToolNameCheck`, as in every ingress.
 * - `custom` (freeform) tools become a function taking one string property `input`; a grammar `format` is written
 *   into the description. Their names are reported so the egress returns their calls as `custom_tool_call`.
 * - Web search tools (`web_search`, `web_search_preview` and their dated names) become the hosted `web-search` tool
 *   (`filters.allowed_domains` as its allowed domains; `search_context_size` and `user_location` are hints, dropped).
 * - Other hosted tools (file search, code interpreter and the like) run at OpenAI: they are dropped from the offered
 *   tools and reported, never turned into functions. Any other tool type is refused.
 */
export function decodeOpenAiResponsesClientTools(groups: readonly { readonly tools: readonly unknown[]; readonly path: string }[]): DecodedClientTools {
  const tools: ToolDefinitionV2[] = [];
  const freeformToolNames: string[] = [];
  const droppedHostedTools: string[] = [];
  const hostedTools: HostedToolV3[] = [];
  const hostedToolNames: string[] = [];
  const checkName = createToolNameCheck();
  const add = (tool: ToolDefinitionV2, path: string): void => {
    checkName(tool.name, `${path}.name`);
    tools.push(tool);
  };
  const visit = (list: readonly unknown[], base: string): void => {
    list.forEach((tool, index) => {
      const path = `${base}.${index}`;
      if (!isClientObject(tool)) throw invalidClientField(path, 'must be an object');
      const type = tool.type;
      if (type === 'namespace') {
        visit(optionalClientArray(tool, 'tools', `${path}.`) ?? [], `${path}.tools`);
        return;
      }
      if (type === 'function') {
        const description = optionalClientString(tool, 'description', `${path}.`);
        const strict = optionalClientBoolean(tool, 'strict', `${path}.`) ?? true;
        const parameters = optionalClientObject(tool, 'parameters', `${path}.`) ?? { type: 'object', properties: {} };
        const deferLoading = optionalClientBoolean(tool, 'defer_loading', `${path}.`);
        add(
          {
            name: requiredClientString(tool, 'name', `${path}.`),
            ...(description === undefined ? {} : { description }),
            inputSchema: { ...parameters },
            strict,
            ...(deferLoading === undefined ? {} : { deferLoading }),
          },
          path,
        );
        return;
      }
      if (type === 'custom') {
        const name = requiredClientString(tool, 'name', `${path}.`);
        const description = freeformDescription(tool, path);
        add(
          {
            name,
            ...(description === undefined ? {} : { description }),
            inputSchema: {
              type: 'object',
              properties: { [OPENAI_RESPONSES_FREEFORM_INPUT_PROPERTY]: { type: 'string' } },
              required: [OPENAI_RESPONSES_FREEFORM_INPUT_PROPERTY],
              additionalProperties: false,
            },
          },
          path,
        );
        freeformToolNames.push(name);
        return;
      }
      if (typeof type === 'string' && WEB_SEARCH_TOOL_TYPES.has(type)) {
        const filters = optionalClientObject(tool, 'filters', `${path}.`);
        const allowedDomains = readDomainList(filters?.allowed_domains);
        hostedTools.push({ kind: 'web-search', ...(allowedDomains === undefined ? {} : { allowedDomains }) });
        hostedToolNames.push(type);
        return;
      }
      if (typeof type === 'string' && HOSTED_TOOL_TYPES.has(type)) {
        droppedHostedTools.push(type);
        return;
      }
      throw unsupportedClientField(`${path}.type`, 'only function, custom, namespace and hosted tools are supported');
    });
  };
  for (const group of groups) visit(group.tools, group.path);
  return { tools, freeformToolNames, droppedHostedTools, hostedTools, hostedToolNames };
}
