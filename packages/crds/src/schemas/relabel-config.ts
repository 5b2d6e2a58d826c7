/** Prometheus relabeling rules, as written in `relabelings`, `metricRelabelings` and `writeRelabelConfigs`. */
import { str, stringList } from './common.ts';

/**
 * The actions prometheus-operator's CRD accepts: Prometheus' lowercase names plus the CamelCase spellings the
 * CRD has always allowed. promop lowercases the action when it renders the configuration.
 */
export const RELABEL_ACTIONS = [
  'replace', 'Replace', 'keep', 'Keep', 'drop', 'Drop', 'hashmod', 'HashMod', 'labelmap', 'LabelMap',
  'labeldrop', 'LabelDrop', 'labelkeep', 'LabelKeep', 'lowercase', 'Lowercase', 'uppercase', 'Uppercase',
  'keepequal', 'KeepEqual', 'dropequal', 'DropEqual',
] as const;

/** One relabeling step. `action` defaults to `replace`, so objects read back from the API server always carry one. */
export const relabelConfigSchema = {
  type: 'object',
  description: 'One relabeling step (Prometheus relabel_config).',
  additionalProperties: false,
  properties: {
    sourceLabels: stringList('Labels whose values are joined with separator and matched against regex.'),
    separator: str('Separator between the joined source label values (default ;).'),
    targetLabel: str('Label written by replace, hashmod, lowercase, uppercase, keepequal and dropequal.'),
    regex: str('Regular expression matched against the joined source values (default (.*)).'),
    modulus: { type: 'integer', minimum: 0, description: 'Modulus for the hashmod action.' },
    replacement: str('Replacement value for replace; may use regex capture groups such as $1.'),
    action: {
      type: 'string',
      enum: RELABEL_ACTIONS,
      default: 'replace',
      description: 'What the step does (default replace).',
    },
  },
} as const;

/** A list of relabeling steps. */
export function relabelConfigList<const D extends string>(description: D) {
  return { type: 'array', items: relabelConfigSchema, description } as const;
}
