import type { ChatTaskV2, HostedToolV3, ToolChoiceV2, ToolDefinitionV2 } from '@tokenforge/model-protocol';
import { readDomainList } from '../../codec-kit/index.js';
import { invalidClientRequest, unsupportedClientFeature } from './client-readers.js';
import { fromGeminiOpenApiSchema } from './decode-client-schema.js';
import { isJsonObject } from './wire-readers.js';
import { createToolNameCheck } from '../../codec-kit/tool-name-check.js';

/**
 * Reads `tools[].functionDeclarations` into task tools: `parametersJsonSchema` as is, `parameters` through
 * `fromGeminiOpenApiSchema`, none → an empty object schema; `response` schemas and `behavior` are dropped;
 * `googleSearch` is read by `decodeClientHostedTools`; other tool kinds (code execution, URL context, ...) are
 * refused.
 *
 * @throws {CodecErrorV1}
 */
export function decodeClientTools(value: unknown): ToolDefinitionV2[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalidClientRequest('tools is not an array', 'tools');
  const tools: ToolDefinitionV2[] = [];
  const checkName = createToolNameCheck();
  value.forEach((tool: unknown, toolIndex) => {
    const path = `tools.${toolIndex}`;
    if (!isJsonObject(tool)) throw invalidClientRequest('tool is not an object', path);
    for (const key of Object.keys(tool)) {
      if (key !== 'functionDeclarations' && key !== 'googleSearch') throw unsupportedClientFeature('only function declarations and Google Search are supported', `${path}.${key}`);
    }
    if (tool.functionDeclarations === undefined) return;
    if (!Array.isArray(tool.functionDeclarations)) throw invalidClientRequest('functionDeclarations is not an array', `${path}.functionDeclarations`);
    tool.functionDeclarations.forEach((declaration: unknown, index) => {
      const declarationPath = `${path}.functionDeclarations.${index}`;
      if (!isJsonObject(declaration) || typeof declaration.name !== 'string') throw invalidClientRequest('function declaration needs a name', declarationPath);
      checkName(declaration.name, `${declarationPath}.name`);
      if (declaration.parameters !== undefined && declaration.parametersJsonSchema !== undefined) {
        throw invalidClientRequest('parameters and parametersJsonSchema are mutually exclusive', declarationPath);
      }
      let inputSchema: Record<string, unknown> = { type: 'object', properties: {} };
      if (declaration.parametersJsonSchema !== undefined) {
        if (!isJsonObject(declaration.parametersJsonSchema)) throw invalidClientRequest('parametersJsonSchema is not an object', `${declarationPath}.parametersJsonSchema`);
        inputSchema = declaration.parametersJsonSchema;
      } else if (declaration.parameters !== undefined) {
        inputSchema = fromGeminiOpenApiSchema(declaration.parameters, `${declarationPath}.parameters`);
      }
      if (declaration.description !== undefined && typeof declaration.description !== 'string') {
        throw invalidClientRequest('description is not a string', `${declarationPath}.description`);
      }
      tools.push({
        name: declaration.name,
        ...(typeof declaration.description === 'string' ? { description: declaration.description } : {}),
        inputSchema,
      });
    });
  });
  return tools.length === 0 ? undefined : tools;
}

/**
 * Reads the `googleSearch` tools as hosted `web-search` tools (`excludeDomains` → blocked domains; other members,
 * such as a time range, are hints and dropped).
 *
 * @throws {CodecErrorV1} `invalid-request` for a `googleSearch` that is not an object.
 */
export function decodeClientHostedTools(value: unknown): HostedToolV3[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const hosted: HostedToolV3[] = [];
  value.forEach((tool: unknown, toolIndex) => {
    if (!isJsonObject(tool) || tool.googleSearch === undefined) return;
    if (!isJsonObject(tool.googleSearch)) throw invalidClientRequest('googleSearch is not an object', `tools.${toolIndex}.googleSearch`);
    const blockedDomains = readDomainList(tool.googleSearch.excludeDomains);
    hosted.push({ kind: 'web-search', ...(blockedDomains === undefined ? {} : { blockedDomains }) });
  });
  return hosted.length === 0 ? undefined : hosted;
}

/**
 * Reads `toolConfig.functionCallingConfig`: `AUTO` → auto, `NONE` → none, `ANY` → required (or the named tool when
 * `allowedFunctionNames` holds one name, or names every tool), `VALIDATED` → auto with every tool strict; any
 * other name subset is refused. Call after the tools are set on the task.
 *
 * @throws {CodecErrorV1}
 */
export function decodeClientToolConfig(value: unknown, task: ChatTaskV2): ToolChoiceV2 | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isJsonObject(value)) throw invalidClientRequest('toolConfig is not an object', 'toolConfig');
  const config = value.functionCallingConfig;
  if (config === undefined || config === null) return undefined;
  if (!isJsonObject(config)) throw invalidClientRequest('functionCallingConfig is not an object', 'toolConfig.functionCallingConfig');
  const mode = config.mode ?? 'AUTO';
  const names = config.allowedFunctionNames;
  if (names !== undefined && (!Array.isArray(names) || names.some((name) => typeof name !== 'string'))) {
    throw invalidClientRequest('allowedFunctionNames is not a list of names', 'toolConfig.functionCallingConfig.allowedFunctionNames');
  }
  const allowed = (names ?? []) as string[];
  const path = 'toolConfig.functionCallingConfig';
  switch (mode) {
    case 'AUTO':
    case 'MODE_UNSPECIFIED':
      if (allowed.length > 0) throw invalidClientRequest('allowedFunctionNames needs mode ANY', `${path}.allowedFunctionNames`);
      return { type: 'auto' };
    case 'NONE':
      return { type: 'none' };
    case 'ANY': {
      const declared = new Set((task.tools ?? []).map((tool) => tool.name));
      if (allowed.length === 0 || (allowed.length === declared.size && allowed.every((name) => declared.has(name)))) return { type: 'required' };
      if (allowed.length === 1) return { type: 'tool', toolName: allowed[0] as string };
      throw unsupportedClientFeature('a subset of several allowed functions is not supported', `${path}.allowedFunctionNames`);
    }
    case 'VALIDATED':
      if (allowed.length > 0) throw unsupportedClientFeature('allowedFunctionNames with VALIDATED is not supported', `${path}.allowedFunctionNames`);
      if (task.tools !== undefined) task.tools = task.tools.map((tool) => ({ ...tool, strict: true }));
      return { type: 'auto' };
    default:
      throw invalidClientRequest('unknown function calling mode', `${path}.mode`);
  }
}
