/** The one value every model name outside the catalogue becomes in metrics, spans and the operator log. */
export const UNKNOWN_MODEL_LABEL = 'unknown';

/**
 * The model name as it may appear in an attribute, a span name or an aggregated log field: a catalogue model's
 * name, or {@link UNKNOWN_MODEL_LABEL}. A client chooses the name it sends, so letting it through would let any
 * client mint unbounded metric series.
 */
export function catalogueModelLabel(models: ReadonlyMap<string, unknown>, name: string): string {
  return models.has(name) ? name : UNKNOWN_MODEL_LABEL;
}
