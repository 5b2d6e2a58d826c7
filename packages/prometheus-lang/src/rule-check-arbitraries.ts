/**
 * fast-check generators of what the rule checker must judge like Prometheus (imported by tests
 * and scripts only): PromQL expressions drawn from the grammar with a type in mind, so that most
 * are well-typed and many are not (a wrong argument type or count, bool on the wrong operator, an
 * offset on a function call, an experimental function...), then sometimes damaged character by
 * character; and alert templates built from Prometheus' template idioms, then damaged the same way.
 */
import fc from 'fast-check';

/** One generated case: an expression for a recording rule, or a template for an alert annotation. */
export type RuleCheckCase = { kind: 'expr'; expr: string } | { kind: 'template'; template: string };

/** Expressions and templates in the given proportion (by default two expressions per template). */
export function ruleCheckCaseArbitrary(): fc.Arbitrary<RuleCheckCase> {
  // fast-check draws one unbiased seed per case and a small PRNG makes the grammar's many choices:
  // drawing each choice through fast-check (fc.gen) made generation the slowest part of a run.
  return fc.noBias(fc.integer({ min: 0, max: 0x7fffffff })).map((seed) => {
    const draw = drawFrom(seed);
    if (draw.chance(0.33)) return { kind: 'template', template: new TemplateGenerator(draw).template() };
    return { kind: 'expr', expr: new ExpressionGenerator(draw).expression() };
  });
}

/** The random choices a generator makes, all derived from one seed. */
interface Draw {
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
}

/** mulberry32, a small PRNG: the same seed gives the same case. */
function drawFrom(seed: number): Draw {
  let state = seed >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(random() * (max - min + 1));
  return {
    int,
    pick: <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!,
    chance: (probability: number): boolean => int(0, 999) < probability * 1000,
  };
}

type ValueType = 'scalar' | 'vector' | 'matrix' | 'string';

/** Signatures as in Prometheus 3.16, plus names it does not know, to call with right and wrong arguments. */
const FUNCTIONS: ReadonlyArray<[string, ValueType[], number]> = [
  ['abs', ['vector'], 0], ['absent', ['vector'], 0], ['absent_over_time', ['matrix'], 0], ['acos', ['vector'], 0],
  ['avg_over_time', ['matrix'], 0], ['ceil', ['vector'], 0], ['changes', ['matrix'], 0], ['clamp', ['vector', 'scalar', 'scalar'], 0],
  ['clamp_max', ['vector', 'scalar'], 0], ['clamp_min', ['vector', 'scalar'], 0], ['count_over_time', ['matrix'], 0],
  ['days_in_month', ['vector'], 1], ['day_of_week', ['vector'], 1], ['day_of_year', ['vector'], 1], ['deg', ['vector'], 0],
  ['delta', ['matrix'], 0], ['deriv', ['matrix'], 0], ['double_exponential_smoothing', ['matrix', 'scalar', 'scalar'], 0],
  ['end', [], 0], ['exp', ['vector'], 0], ['first_over_time', ['matrix'], 0], ['floor', ['vector'], 0],
  ['histogram_avg', ['vector'], 0], ['histogram_count', ['vector'], 0], ['histogram_fraction', ['scalar', 'scalar', 'vector'], 0],
  ['histogram_quantile', ['scalar', 'vector'], 0], ['histogram_quantiles', ['vector', 'string', 'scalar', 'scalar'], 9],
  ['histogram_stddev', ['vector'], 0], ['histogram_sum', ['vector'], 0], ['hour', ['vector'], 1], ['idelta', ['matrix'], 0],
  ['increase', ['matrix'], 0], ['info', ['vector', 'vector'], 1], ['integral', ['matrix', 'scalar'], 1], ['irate', ['matrix'], 0],
  ['label_join', ['vector', 'string', 'string', 'string'], -1], ['label_replace', ['vector', 'string', 'string', 'string', 'string'], 0],
  ['last_over_time', ['matrix'], 0], ['ln', ['vector'], 0], ['log2', ['vector'], 0], ['mad_over_time', ['matrix'], 0],
  ['max_of', ['scalar', 'scalar'], 0], ['max_over_time', ['matrix'], 0], ['min_of', ['scalar', 'scalar'], 0], ['min_over_time', ['matrix'], 0],
  ['minute', ['vector'], 1], ['month', ['vector'], 1], ['pi', [], 0], ['predict_linear', ['matrix', 'scalar'], 0],
  ['present_over_time', ['matrix'], 0], ['quantile_over_time', ['scalar', 'matrix'], 0], ['rad', ['vector'], 0], ['range', [], 0],
  ['rate', ['matrix'], 0], ['resets', ['matrix'], 0], ['round', ['vector', 'scalar'], 1], ['scalar', ['vector'], 0], ['sgn', ['vector'], 0],
  ['sort', ['vector'], 0], ['sort_by_label', ['vector', 'string'], -1], ['sort_by_label_desc', ['vector', 'string'], -1], ['sort_desc', ['vector'], 0],
  ['sqrt', ['vector'], 0], ['start', [], 0], ['start_timestamp', ['vector'], 0], ['step', [], 0], ['stddev_over_time', ['matrix'], 0],
  ['sum_over_time', ['matrix'], 0], ['tan', ['vector'], 0], ['time', [], 0], ['timestamp', ['vector'], 0], ['ts_of_first_over_time', ['matrix'], 0],
  ['ts_of_max_over_time', ['matrix'], 0], ['ts_of_last_over_time', ['matrix'], 0], ['vector', ['scalar'], 0], ['year', ['vector'], 1],
  // Not functions of 3.16: removed, misspelled, wrong case.
  ['holt_winters', ['matrix', 'scalar', 'scalar'], 0], ['rates', ['matrix'], 0], ['Rate', ['matrix'], 0], ['STEP', [], 0], ['fill', ['vector'], 0],
];
const RETURNS_SCALAR = new Set(['end', 'max_of', 'min_of', 'pi', 'range', 'scalar', 'start', 'step', 'time']);

const AGGREGATIONS = ['sum', 'avg', 'count', 'min', 'max', 'group', 'stddev', 'stdvar', 'topk', 'bottomk', 'quantile', 'count_values', 'limitk', 'limit_ratio', 'SUM'];
const BINARY_OPERATORS = ['+', '-', '*', '/', '%', '^', 'atan2', '==', '!=', '>', '<', '>=', '<=', 'and', 'or', 'unless', '</', '>/'];
// Each list of choices has a "wrong" companion that Prometheus refuses, drawn less often.
const METRIC_NAMES = [
  'up', 'x', 'http_requests_total', 'node:cpu:rate5m', ':x', '_y', 'sum', 'by', 'without', 'offset', 'start', 'end', 'step', 'range',
  'fill', 'anchored', 'smoothed', 'and', 'unless', 'count_values', 'min_of', 'rate', 'Offset', 'inf',
];
const WRONG_METRIC_NAMES = ['bool', 'on', 'group_left', 'atan2', 'a.b', 'ignoring', 'café', 'ünits_total', 'a.b.c', 'ﬁle'];
const LABEL_NAMES = ['job', 'instance', 'le', 'code', 'sum', 'by', 'on', 'bool', 'offset', 'OFFSET', 'inf', 'group_left', '_x', '"quoted.label"', '"__name__"', '__name__', 'zoné', 'k8s.pod'];
const MATCHER_VALUES = ['"a"', '""', '".*"', '".+"', '"5.."', "'b'", '`c`', '"a|b"', '"\\\\d+"', '"(?i)x"', '"[[:alpha:]]"', '"(?i)"', '"x*"', '"\\u00e9"', '"\\x41"', '"\\101"', '"é"', "'\\''", '"\\\\pL+"', '"[^a]?"'];
const WRONG_MATCHER_VALUES = ['"(a"', '"\\q"', '"x{2,1}"', '"a**"', '"(?<!a)b"'];
const DURATIONS = ['5m', '1h', '30s', '1h30m', '10ms', '1d', '1w', '1y', '300', '0.5', '1_000', '5m + 1m', '2 * 5m', '5m % 2', '(5m)', '-(5m)', '(0)', 'step()', '2 * step()', 'range()', 'min_of(5m, 1h)', 'max_of(1m, step())', 'STEP()', '5m - 10m', '5m ^ 2', '+5m'];
const WRONG_DURATIONS = ['0', '0s', '1.5m', '5mm', '1s1m', '-5m', '1e10', '5m / 0', '5m / -0', 'inf', 'x', '5m:', ''];
const OFFSETS = ['5m', '-5m', '0s', '1h', '300', '(1m + 2m)', 'step()', '-step()', '-(5m)', 'min_of(1m, 2m)', '1m + 1', '(1m) + 1m', '--5m', '+1h', '1m * 2'];
const WRONG_OFFSETS = ['inf', '1e10', '5 m', '(1m) + x', '', 'x', '[5m]'];
const TIMESTAMPS = ['123', '-5', '1.5', '5m', 'start()', 'end()', 'start ()', '+10', '1e9'];
const WRONG_TIMESTAMPS = ['1e20', 'inf', 'step()', 'x', ''];
const NUMBERS = ['1', '0.5', '42', '1e3', '.5', '1.', '0x1F', '1_000', '0777', '089', 'Inf', 'NaN', '-1', '1e-400', '5m', '1h30m', '2.5e-3', '0x1e5'];
const WRONG_NUMBERS = ['1__0', '1e400', '0x1e+5', '1_', '1.5m', '0x', '1e'];
const STRINGS = ['"a"', "'b'", '`c`', '"job"', '","', '"$1"', '"(.*)"', '"le"', '"0.5"', '""'];
const WRONG_STRINGS = ['"\\x"', '"a', "'\\\"'"];
const SPACES = [' ', ' ', ' ', '', '  ', '\n', ' # note\n'];
const REGEX_ATOMS = [
  'a', '.', '\\d', '[a-z]', '[^]a]', '[]a]', '[[:alpha:]]', '[[:^digit:]x]', '\\pL', '\\p{Greek}', '\\p{greek}', '\\p{Old_Italic}', '\\p{Letter}', '\\p{LC}', '\\PN', '\\x41', '\\x{1F600}', '(a|b)', '(?i)',
  '(?:x)', '(?P<name>y)', '\\Q.*\\E', '\\b', '\\z', '^', '$', '\\.', '\\-', '[\\-a]', '[a\\-z]', '\\n', '\\012', '[\\x00-\\x7f]', '\\s+',
];
const SOUP_TOKENS = [
  'x', 'up', 'a:b', 'sum', 'rate', 'time', 'vector', 'topk', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool',
  'offset', 'start', 'end', 'step', 'range', 'min_of', 'anchored', 'smoothed', 'fill', 'and', 'or', 'unless', 'atan2', 'inf', 'nan',
  '1', '5m', '-', '+', '*', '/', '%', '^', '==', '!=', '<', '>=', '</', '>/', '@', '(', ')', '[', ']', '{', '}', ',', ':', '"a"', 'a="b"',
  '=~', '#c\n', '()', '[5m]', '[5m:]', '{a="b"}', '(x)', 'rate(x[5m])', 'sum(x)',
];
const DAMAGE = ['é', '\\', 'OFFSET', 'Bool', ' ', '(', ')', '[', ']', '{', '}', ',', ':', '@', ' offset ', ' bool ', '5m', '-', '+', '"', '#', ' by ', ' on ', '=', '==', '~', '!', '0x', '_', '.', 'e', '/', '*'];

/** Draws PromQL with a type in mind. Each node has a small chance of being wrong. */
class ExpressionGenerator {
  private readonly draw: Draw;

  constructor(draw: Draw) {
    this.draw = draw;
  }

  /** Mostly a valid choice, sometimes one Prometheus refuses. */
  private choose(valid: readonly string[], wrong: readonly string[], wrongChance = 0.05): string {
    return this.draw.chance(wrongChance) ? this.draw.pick(wrong) : this.draw.pick(valid);
  }

  expression(): string {
    if (this.draw.chance(0.12)) return this.tokenSoup();
    let text = this.ofType(this.draw.pick<ValueType>(['vector', 'vector', 'vector', 'scalar', 'matrix']), this.draw.int(0, 4));
    if (this.draw.chance(0.15)) text = damage(this.draw, text, DAMAGE);
    return text.trim() === '' ? 'up' : text;
  }

  /** A few PromQL tokens in any order: mostly refused, and a probe of every corner of the grammar. */
  private tokenSoup(): string {
    const tokens: string[] = [];
    for (let i = this.draw.int(1, 9); i > 0; i--) tokens.push(this.draw.pick(SOUP_TOKENS));
    return tokens.join(this.draw.pick([' ', '', ' ']));
  }

  private ofType(type: ValueType, depth: number): string {
    const draw = this.draw;
    // Now and then an expression of another type, where this one is expected.
    if (draw.chance(0.06)) type = draw.pick<ValueType>(['vector', 'scalar', 'matrix', 'string']);
    if (type === 'string') return this.choose(STRINGS, WRONG_STRINGS);
    if (depth <= 0) return this.leaf(type);
    switch (type) {
      case 'scalar':
        return this.pickWeighted([
          [3, () => this.choose(NUMBERS, WRONG_NUMBERS)],
          [2, () => this.call('scalar', depth)],
          [3, () => this.binary('scalar', depth)],
          [1, () => `(${this.ofType('scalar', depth - 1)})`],
          [1, () => `-${this.ofType('scalar', depth - 1)}`],
        ]);
      case 'matrix':
        return this.pickWeighted([
          [4, () => this.rangeSelector()],
          [2, () => `${this.subqueryOperand(depth)}[${this.range()}:${draw.chance(0.6) ? this.range() : ''}]${this.timeModifiers(0.3)}`],
          [1, () => `(${this.selector()})[${this.range()}]`],
        ]);
      default:
        return this.pickWeighted([
          [3, () => this.selector() + this.timeModifiers(0.25)],
          [4, () => this.call('vector', depth)],
          [3, () => this.aggregation(depth)],
          [3, () => this.binary('vector', depth)],
          [1, () => `(${this.ofType('vector', depth - 1)})${draw.chance(0.1) ? this.timeModifiers(1) : ''}`],
          [1, () => `${draw.pick(['-', '+', '- '])}${this.ofType('vector', depth - 1)}`],
        ]);
    }
  }

  private leaf(type: ValueType): string {
    if (type === 'scalar') return this.choose(NUMBERS, WRONG_NUMBERS);
    if (type === 'matrix') return this.rangeSelector();
    return this.selector();
  }

  private subqueryOperand(depth: number): string {
    const inner = this.ofType('vector', depth - 1);
    return /^[\w:]+(\{[^}]*\})?$/.test(inner) || this.draw.chance(0.2) ? inner : `(${inner})`;
  }

  private selector(): string {
    const draw = this.draw;
    const name = draw.chance(0.85) ? this.choose(METRIC_NAMES, WRONG_METRIC_NAMES, 0.03) : '';
    if (name !== '' && draw.chance(0.5)) return name;
    const matchers: string[] = [];
    for (let i = draw.int(name === '' ? 1 : 0, 3); i > 0; i--) {
      const label = draw.pick(LABEL_NAMES);
      if (label.startsWith('"') && draw.chance(0.3)) matchers.push(label);
      else {
        const operator = draw.pick(['=', '!=', '=~', '!~']);
        const value = operator.includes('~') && draw.chance(0.3) ? this.regex() : this.choose(MATCHER_VALUES, WRONG_MATCHER_VALUES);
        matchers.push(`${label}${operator}${value}`);
      }
    }
    if (name === '' && draw.chance(0.05)) matchers.length = 0;
    return `${name}{${matchers.join(draw.pick([',', ', ']))}${draw.chance(0.1) ? ',' : ''}}`;
  }

  /** A regex of RE2 atoms and operators as a PromQL string, sometimes damaged. */
  private regex(): string {
    const draw = this.draw;
    let regex = '';
    for (let i = draw.int(1, 4); i > 0; i--) {
      regex += draw.pick(REGEX_ATOMS);
      if (draw.chance(0.4)) regex += draw.pick(['*', '+', '?', '{2}', '{1,3}', '{0}', '*?', '|', '{1001}']);
    }
    if (draw.chance(0.2)) regex = damage(draw, regex, ['[', ']', '(', ')', '\\', '{', '}', ':', '^', '-', '|', '*']);
    return JSON.stringify(regex);
  }

  private rangeSelector(): string {
    const draw = this.draw;
    const before = draw.chance(0.08) ? this.timeModifiers(1) : '';
    return `${this.selector()}${before}[${this.range()}]${draw.chance(0.15) ? ` ${draw.pick(['anchored', 'smoothed', 'anchored smoothed'])}` : ''}${this.timeModifiers(0.2)}`;
  }

  private range(): string {
    return this.draw.chance(0.6) ? this.draw.pick(['5m', '1h', '30s', '10m', '1d']) : this.choose(DURATIONS, WRONG_DURATIONS, 0.15);
  }

  /** `offset`, `@`, `anchored`/`smoothed` in any order, each with the given probability. */
  private timeModifiers(probability: number): string {
    const draw = this.draw;
    const modifiers: string[] = [];
    if (draw.chance(probability)) modifiers.push(` ${draw.chance(0.9) ? 'offset' : 'OFFSET'} ${draw.chance(0.5) ? '5m' : this.choose(OFFSETS, WRONG_OFFSETS, 0.1)}`);
    if (draw.chance(probability * 0.6)) modifiers.push(` @ ${this.choose(TIMESTAMPS, WRONG_TIMESTAMPS, 0.1)}`);
    if (draw.chance(probability * 0.2)) modifiers.push(` ${draw.pick(['anchored', 'smoothed'])}`);
    if (draw.chance(probability * 0.1)) modifiers.push(` offset ${this.choose(OFFSETS, WRONG_OFFSETS, 0.1)}`);
    return draw.chance(0.5) ? modifiers.join('') : modifiers.reverse().join('');
  }

  private call(returning: 'scalar' | 'vector', depth: number): string {
    const draw = this.draw;
    const candidates = FUNCTIONS.filter(([name]) => (returning === 'scalar') === RETURNS_SCALAR.has(name));
    const [name, argTypes, variadic] = draw.pick(draw.chance(0.9) ? candidates : FUNCTIONS);
    let count = argTypes.length;
    if (variadic !== 0) count = draw.int(Math.max(0, argTypes.length - 1), argTypes.length + (variadic < 0 ? 2 : variadic));
    if (draw.chance(0.1)) count = draw.int(0, 4);
    const args: string[] = [];
    for (let i = 0; i < count; i++) {
      const expected = argTypes[Math.min(i, argTypes.length - 1)] ?? draw.pick<ValueType>(['vector', 'scalar']);
      args.push(this.ofType(expected, depth - 1));
    }
    if (name === 'info' && args.length > 1 && draw.chance(0.7)) args[1] = draw.pick(['{k8s_cluster="a"}', '{}', 'target_info', '{job=~".*"}', '({a="b"})']);
    const trailing = draw.chance(0.03) ? ',' : '';
    return `${name}${draw.chance(0.1) ? ' ' : ''}(${args.join(draw.pick([', ', ',']))}${trailing})${draw.chance(0.05) ? this.timeModifiers(1) : ''}`;
  }

  private aggregation(depth: number): string {
    const draw = this.draw;
    const operator = draw.pick(AGGREGATIONS);
    const args: string[] = [];
    const parameter: Record<string, ValueType> = { topk: 'scalar', bottomk: 'scalar', quantile: 'scalar', limitk: 'scalar', limit_ratio: 'scalar', count_values: 'string' };
    if (parameter[operator] && draw.chance(0.9)) args.push(this.ofType(parameter[operator]!, depth - 1));
    if (draw.chance(0.95)) args.push(this.ofType('vector', depth - 1));
    if (draw.chance(0.04)) args.push(this.ofType('vector', depth - 1));
    const grouping = draw.chance(0.5) ? ` ${draw.pick(['by', 'without', 'BY'])} ${this.labelList()} ` : '';
    const body = `(${args.join(', ')})`;
    if (grouping === '') return `${operator}${body}`;
    return draw.chance(0.5) ? `${operator}${grouping}${body}` : `${operator}${body}${grouping}`;
  }

  private labelList(): string {
    const draw = this.draw;
    const labels: string[] = [];
    for (let i = draw.int(0, 3); i > 0; i--) labels.push(draw.pick([...LABEL_NAMES, 'a:b', '""', 'fill']));
    return `(${labels.join(', ')}${draw.chance(0.1) ? ',' : ''})`;
  }

  private binary(type: 'scalar' | 'vector', depth: number): string {
    const draw = this.draw;
    const operator = draw.pick(BINARY_OPERATORS);
    const isComparison = ['==', '!=', '>', '<', '>=', '<='].includes(operator);
    const [left, right]: ValueType[] =
      type === 'scalar' ? ['scalar', 'scalar'] : draw.pick<ValueType[]>([['vector', 'vector'], ['vector', 'vector'], ['vector', 'scalar'], ['scalar', 'vector']]);
    let modifiers = '';
    if (draw.chance(isComparison ? 0.5 : 0.08)) modifiers += draw.chance(0.95) ? ' bool' : ' BOOL';
    if (draw.chance(0.25)) {
      modifiers += ` ${draw.pick(['on', 'ignoring'])}${this.labelList()}`;
      if (draw.chance(0.4)) modifiers += ` ${draw.pick(['group_left', 'group_right'])}${draw.chance(0.6) ? this.labelList() : ''}`;
    }
    if (draw.chance(0.05)) modifiers += ` ${draw.pick(['fill(0)', 'fill_left(1) fill_right(-1)', 'fill_right(2m)', 'fill(x)'])}`;
    const space = (): string => draw.pick(SPACES);
    return `${this.ofType(left!, depth - 1)}${space()}${operator}${modifiers}${space()}${this.ofType(right!, depth - 1)}`;
  }

  private pickWeighted(options: ReadonlyArray<[number, () => string]>): string {
    const total = options.reduce((sum, [weight]) => sum + weight, 0);
    let roll = this.draw.int(0, total - 1);
    for (const [weight, make] of options) {
      if (roll < weight) return make();
      roll -= weight;
    }
    return options[0]![1]();
  }
}

const TEMPLATE_TEXT = ['Value is ', 'instance ', '', 'x\ny', ' ', '{', '}', '%', 'a {b} ', 'ok: '];
const TEMPLATE_FUNCTIONS = [
  'humanize', 'humanize1024', 'humanizeDuration', 'humanizePercentage', 'humanizeTimestamp', 'toUpper', 'toLower', 'title', 'printf', 'print',
  'len', 'index', 'and', 'or', 'not', 'eq', 'gt', 'toTime', 'toDuration', 'now', 'urlQueryEscape', 'stripPort', 'stripDomain', 'safeHtml',
  'query', 'first', 'value', 'label', 'args', 'match', 'reReplaceAll', 'graphLink', 'externalURL', 'pathPrefix', 'sortByLabel', 'parseDuration',
];
const WRONG_TEMPLATE_FUNCTIONS = ['humanise', 'foo', 'tmpl', 'Humanize', 'break', 'end', 'define'];
const TEMPLATE_OPERANDS = ['$value', '$labels.instance', '$labels.job', '.Value', '.Labels.job', '$externalLabels.cluster', '$externalURL', '"text"', '`raw`', '1.5', "'c'", 'nil', 'true', '$', '.', '$labels', '0x1F', '-1', '1e3'];
const WRONG_TEMPLATE_OPERANDS = ['$x', '$undefined', '1e400', '"\\q"', "'ab'", '08', '..', '$value.', '1.Foo'];
const TEMPLATE_DAMAGE = ['{{', '}}', '{', '}', '(', ')', '$', '|', '"', '`', "'", 'end', 'else', '-', ' ', '.', ':=', '=', ',', '/*', '*/', '{{end}}', '{{ else }}'];

/** Draws alert templates from Prometheus' idioms: pipelines, if/range/with, define/template. */
class TemplateGenerator {
  private readonly draw: Draw;

  constructor(draw: Draw) {
    this.draw = draw;
  }

  template(): string {
    let text = this.sequence(this.draw.int(0, 2));
    if (this.draw.chance(0.2)) text = damage(this.draw, text, TEMPLATE_DAMAGE);
    return text;
  }

  private sequence(depth: number): string {
    const parts: string[] = [];
    for (let i = this.draw.int(1, 3); i > 0; i--) parts.push(this.draw.pick(TEMPLATE_TEXT), this.node(depth));
    return parts.join('');
  }

  private node(depth: number): string {
    const draw = this.draw;
    const roll = draw.int(0, 9);
    if (depth <= 0 || roll < 5) return this.action(this.pipeline());
    if (roll < 8) {
      const control = draw.pick(['if', 'with', 'range']);
      const head = control === 'range' && draw.chance(0.5) ? `$k, $v := ${draw.pick(['$labels', '.Labels', '$value'])}` : this.pipeline();
      let text = `${this.action(`${control} ${head}`)}${this.sequence(depth - 1)}`;
      if (control === 'range' && draw.chance(0.2)) text += this.action(draw.pick(['break', 'continue']));
      if (draw.chance(0.4)) text += `${this.action(draw.chance(0.3) ? `else ${control} ${this.pipeline()}` : 'else')}${this.sequence(depth - 1)}`;
      return `${text}${this.action('end')}`;
    }
    if (roll < 9) {
      const name = draw.pick(['"x"', '"y"', '"__alert_A"', '`x`', 'x']);
      return `${this.action(`define ${name}`)}${this.sequence(depth - 1)}${this.action('end')}${draw.chance(0.7) ? this.action(`template ${name} .`) : ''}`;
    }
    const simple = draw.pick(['/* note */', `$x := ${draw.pick(TEMPLATE_OPERANDS)}`, '$x = 1', 'template "x"', 'template "x" .']);
    if (draw.chance(0.8)) return this.action(simple);
    return `${this.action('block "b" .')}${this.sequence(depth - 1)}${this.action('end')}`;
  }

  private pipeline(): string {
    const draw = this.draw;
    const commands: string[] = [];
    for (let i = draw.int(1, 3); i > 0; i--) {
      const command: string[] = [];
      if (i === 1 || draw.chance(0.6)) command.push(draw.chance(0.04) ? draw.pick(WRONG_TEMPLATE_FUNCTIONS) : draw.pick(TEMPLATE_FUNCTIONS));
      for (let j = draw.int(commands.length === 0 && command.length === 0 ? 1 : 0, 2); j > 0; j--) {
        command.push(draw.chance(0.1) ? `(${this.pipeline()})` : draw.chance(0.04) ? draw.pick(WRONG_TEMPLATE_OPERANDS) : draw.pick(TEMPLATE_OPERANDS));
      }
      if (command.length > 0) commands.push(command.join(' '));
    }
    return commands.reverse().join(draw.pick([' | ', '|']));
  }

  private action(body: string): string {
    const draw = this.draw;
    return `{{${draw.chance(0.15) ? '- ' : draw.pick([' ', ''])}${body}${draw.chance(0.15) ? ' -' : draw.pick([' ', ''])}}}`;
  }
}

/** One to three character-level changes: a deletion, an insertion from `tokens`, or a swap. */
function damage(draw: Draw, text: string, tokens: readonly string[]): string {
  let result = text;
  for (let i = draw.int(1, 3); i > 0; i--) {
    const at = draw.int(0, result.length);
    const kind = draw.int(0, 2);
    if (kind === 0 && result.length > 1) result = result.slice(0, at) + result.slice(at + 1);
    else if (kind === 1) result = result.slice(0, at) + draw.pick(tokens) + result.slice(at);
    else if (at + 1 < result.length) result = result.slice(0, at) + result[at + 1] + result[at] + result.slice(at + 2);
  }
  return result;
}
