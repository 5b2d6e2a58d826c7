/**
 * Go template pipelines as text/template/parse/parse.go parses them: variable declarations, commands and their
 * operands, with the checks that make Prometheus refuse a rule file: an unknown function, an undefined variable, a
 * number Go cannot read, a value in a later pipeline stage, expressions nested too deeply.
 */
import type { Item, ItemType } from './go-template-lexer.ts';
import { TemplateItemReader } from './go-template-items.ts';
import { goTemplateNumberError, unquoteGoString } from './go-template-literals.ts';

/** Go's predeclared template functions (text/template's builtins()). */
const GO_BUILTIN_FUNCTIONS: ReadonlySet<string> = new Set([
  'and', 'call', 'html', 'index', 'slice', 'js', 'len', 'not', 'or', 'print', 'printf', 'println', 'urlquery',
  'eq', 'ge', 'gt', 'le', 'lt', 'ne',
]);

/** The kind of an operand, for pipeline rules ("non executable command"). */
type OperandKind = 'bool' | 'dot' | 'nil' | 'number' | 'string' | 'field' | 'variable' | 'identifier' | 'pipe' | 'chain';

/** Pipelines, on top of reading items; the variables in scope are what the template's structure declares. */
export class TemplatePipelineParser extends TemplateItemReader {
  protected vars: string[] = ['$'];
  private depth = 0;
  private readonly functions: ReadonlySet<string>;

  constructor(items: Item[], functions: ReadonlySet<string>, lexError: Item | undefined) {
    super(items, lexError);
    this.functions = functions;
  }

  // ---- pipelines ----

  protected pipeline(context: string, end: ItemType): void {
    const declarations: string[] = [];
    for (;;) {
      const variable = this.peekNonSpace();
      if (variable.type !== 'variable') break;
      const variableIndex = this.index;
      this.nextNonSpace();
      const following = this.peekNonSpace();
      if (following.type === 'assign' || following.type === 'declare') {
        this.nextNonSpace();
        declarations.push(variable.value);
        this.vars.push(variable.value);
        break;
      }
      if (following.type === 'char' && following.value === ',') {
        this.nextNonSpace();
        declarations.push(variable.value);
        this.vars.push(variable.value);
        if (context === 'range' && declarations.length < 2) {
          const after = this.peekNonSpace().type;
          if (after === 'variable' || after === 'rightDelim' || after === 'rightParen') continue;
          this.error(variable.offset, 'range can only initialize variables');
        }
        this.error(variable.offset, `too many declarations in ${context}`);
      }
      // Not a declaration: the variable starts the first command.
      this.index = variableIndex;
      break;
    }
    const commands: OperandKind[] = [];
    for (;;) {
      const item = this.nextNonSpace();
      if (item.type === end) {
        if (commands.length === 0) this.error(item.offset, `missing value for ${context}`);
        commands.slice(1).forEach((first, index) => {
          if (first === 'bool' || first === 'dot' || first === 'nil' || first === 'number' || first === 'string') {
            this.error(item.offset, `non executable command in pipeline stage ${index + 2}`);
          }
        });
        return;
      }
      switch (item.type) {
        case 'bool':
        case 'charConstant':
        case 'complex':
        case 'dot':
        case 'field':
        case 'identifier':
        case 'number':
        case 'nil':
        case 'rawString':
        case 'string':
        case 'variable':
        case 'leftParen':
          this.index -= 1;
          commands.push(this.command());
          break;
        default:
          this.unexpected(item, context);
      }
    }
  }

  /** One command of a pipeline; returns the kind of its first operand. */
  protected command(): OperandKind {
    const kinds: OperandKind[] = [];
    for (;;) {
      this.peekNonSpace();
      const operand = this.operand();
      if (operand) kinds.push(operand);
      const item = this.next();
      if (item.type === 'space') continue;
      if (item.type === 'rightDelim' || item.type === 'rightParen') this.index -= 1;
      else if (item.type !== 'pipe') this.unexpected(item, 'operand');
      break;
    }
    if (kinds.length === 0) this.error(this.peek().offset, 'empty command');
    return kinds[0]!;
  }

  protected operand(): OperandKind | undefined {
    const term = this.term();
    if (term === undefined) return undefined;
    if (this.peek().type !== 'field') return term.kind;
    while (this.peek().type === 'field') this.next();
    switch (term.kind) {
      case 'field':
      case 'variable':
        return term.kind;
      case 'bool':
      case 'string':
      case 'number':
      case 'nil':
      case 'dot':
        this.error(term.offset, `unexpected . after term ${JSON.stringify(term.text)}`);
      default:
        return 'chain';
    }
  }

  protected term(): { kind: OperandKind; offset: number; text: string } | undefined {
    const item = this.nextNonSpace();
    const at = { offset: item.offset, text: item.value };
    switch (item.type) {
      case 'identifier':
        if (!this.functions.has(item.value) && !GO_BUILTIN_FUNCTIONS.has(item.value)) this.error(item.offset, `function "${item.value}" not defined`);
        return { kind: 'identifier', ...at };
      case 'dot':
        return { kind: 'dot', ...at };
      case 'nil':
        return { kind: 'nil', ...at };
      case 'variable': {
        const name = item.value.split('.')[0]!;
        if (!this.vars.includes(name)) this.error(item.offset, `undefined variable "${name}"`);
        return { kind: 'variable', ...at };
      }
      case 'field':
        return { kind: 'field', ...at };
      case 'bool':
        return { kind: 'bool', ...at };
      case 'charConstant':
      case 'complex':
      case 'number': {
        const problem = goTemplateNumberError(item);
        if (problem) this.error(item.offset, problem);
        return { kind: 'number', ...at };
      }
      case 'leftParen':
        if (this.depth >= 10000) this.error(item.offset, 'max expression depth exceeded');
        this.depth++;
        this.pipeline('parenthesized pipeline', 'rightParen');
        this.depth--;
        return { kind: 'pipe', ...at };
      case 'string':
      case 'rawString':
        if (unquoteGoString(item.value) === undefined) this.error(item.offset, 'invalid syntax');
        return { kind: 'string', ...at };
    }
    this.index -= 1;
    return undefined;
  }
}
