/**
 * Go's text/template parser (text/template/parse/parse.go, Go 1.26), reduced to what decides
 * whether a template parses: Prometheus parses every label and annotation of an alerting rule as
 * a template when it loads the rule file, and refuses the whole file if one has a syntax error, an
 * unknown function or an undefined variable. This module finds the first such error; it builds no
 * tree beyond what those checks need and never executes anything.
 */
import { lexTemplate, type Item } from './go-template-lexer.ts';
import { unquoteGoString } from './go-template-literals.ts';
import { TemplatePipelineParser } from './go-template-pipelines.ts';
import { ParseStop } from './parse-stop.ts';

/** What the template may use besides Go's builtins. */
export interface GoTemplateEnvironment {
  /** Function names the template engine is given (Prometheus' template functions). */
  functions: ReadonlySet<string>;
  /** The template's name, which a {{define}} of the same name would clash with. */
  name: string;
}

/** The first error Go reports when parsing `text`, with the offset it is about. */
export interface GoTemplateError {
  offset: number;
  message: string;
}

/** Parses `text` as Go's text/template would; undefined when it parses. Never throws for bad input. */
export function findGoTemplateError(text: string, environment: GoTemplateEnvironment): GoTemplateError | undefined {
  const lexed = lexTemplate(text);
  const parser = new TemplateParser(lexed.items, environment.functions, lexed.error);
  try {
    parser.parseTemplate(environment.name);
    return undefined;
  } catch (error) {
    if (error instanceof ParseStop) return { offset: error.at, message: error.message };
    // The parser recurses once per nested {{if}} or parenthesis, as Go's does; a template thousands
    // of levels deep is refused rather than let one team's rule stop every team's rules.
    if (error instanceof RangeError) return { offset: 0, message: 'nested too deeply for promop to check (thousands of levels)' };
    throw error;
  }
}

type NodeType = 'text' | 'action' | 'if' | 'range' | 'with' | 'template' | 'end' | 'else' | 'break' | 'continue';

/** Enough of a node to tell an empty {{define}} body from a real one, and {{end}}/{{else}} from content. */
interface TemplateNode {
  type: NodeType;
  offset: number;
  /** Text of a text node. */
  text?: string;
  /** How Go prints {{end}} / {{else}} in "unexpected {{end}}". */
  label?: string;
}

/**
 * Go parses to a tree per template name; only emptiness matters here ({{define}} clashes). The template's structure
 * (definitions, actions, if/range/with/block and their scopes), on top of pipelines and items.
 */
class TemplateParser extends TemplatePipelineParser {
  private rangeDepth = 0;
  /** Whether each defined template name has a non-empty body. */
  private readonly trees = new Map<string, boolean>();

  parseTemplate(name: string): void {
    this.vars = ['$'];
    const root: TemplateNode[] = [];
    while (this.peek().type !== 'EOF') {
      if (this.peek().type === 'leftDelim') {
        const mark = this.index;
        this.next();
        if (this.nextNonSpace().type === 'define') {
          this.parseDefinition();
          continue;
        }
        // Go pushes "{{" and the keyword back; the spaces between them do not matter.
        this.index = mark;
      }
      const node = this.textOrAction();
      if (node.type === 'end' || node.type === 'else') this.error(node.offset, `unexpected ${node.label}`);
      root.push(node);
    }
    this.add(name, root);
  }

  // ---- structure ----

  private parseDefinition(): void {
    const context = 'define clause';
    const nameItem = this.nextNonSpace();
    if (nameItem.type !== 'string' && nameItem.type !== 'rawString') this.unexpected(nameItem, context);
    const name = unquoteGoString(nameItem.value);
    if (name === undefined) this.error(nameItem.offset, 'invalid syntax');
    this.expect('rightDelim', context);
    const saved = this.enterNewTree();
    const { list, end } = this.itemList();
    if (end.type !== 'end') this.error(end.offset, `unexpected ${end.label} in ${context}`);
    this.add(name, list);
    this.leaveTree(saved);
  }

  /** A {{define}} or {{block}} body is a template of its own: only `$` is declared there. */
  private enterNewTree(): { vars: string[]; rangeDepth: number } {
    const saved = { vars: this.vars, rangeDepth: this.rangeDepth };
    this.vars = ['$'];
    this.rangeDepth = 0;
    return saved;
  }

  private leaveTree(saved: { vars: string[]; rangeDepth: number }): void {
    this.vars = saved.vars;
    this.rangeDepth = saved.rangeDepth;
  }

  /** Go's Tree.add: a second non-empty definition of a name is an error. */
  private add(name: string, list: TemplateNode[]): void {
    const existingIsEmpty = this.trees.has(name) ? !this.trees.get(name) : true;
    const isEmpty = list.every(isEmptyNode);
    if (!existingIsEmpty && !isEmpty) this.error(0, `template: multiple definition of template "${name}"`);
    if (existingIsEmpty) this.trees.set(name, !isEmpty);
  }

  private itemList(): { list: TemplateNode[]; end: TemplateNode } {
    const list: TemplateNode[] = [];
    while (this.peekNonSpace().type !== 'EOF') {
      const node = this.textOrAction();
      if (node.type === 'end' || node.type === 'else') return { list, end: node };
      list.push(node);
    }
    this.error(this.peek().offset, 'unexpected EOF');
  }

  private textOrAction(): TemplateNode {
    const item = this.nextNonSpace();
    switch (item.type) {
      case 'text':
        return { type: 'text', offset: item.offset, text: item.value };
      case 'leftDelim':
        return this.action();
      default:
        this.unexpected(item, 'input');
    }
  }

  private action(): TemplateNode {
    const item = this.nextNonSpace();
    switch (item.type) {
      case 'block':
        return this.blockControl(item);
      case 'break':
      case 'continue': {
        const close = this.nextNonSpace();
        if (close.type !== 'rightDelim') this.unexpected(close, `{{${item.type}}}`);
        if (this.rangeDepth === 0) this.error(item.offset, `{{${item.type}}} outside {{range}}`);
        return { type: item.type, offset: item.offset };
      }
      case 'else': {
        const following = this.peekNonSpace();
        if (following.type !== 'if' && following.type !== 'with') this.expect('rightDelim', 'else');
        return { type: 'else', offset: item.offset, label: '{{else}}' };
      }
      case 'end':
        this.expect('rightDelim', 'end');
        return { type: 'end', offset: item.offset, label: '{{end}}' };
      case 'if':
      case 'range':
      case 'with':
        return this.control(item.type, item.offset);
      case 'template': {
        const nameItem = this.nextNonSpace();
        this.templateName(nameItem, 'template clause');
        if (this.nextNonSpace().type !== 'rightDelim') {
          this.index -= 1;
          this.pipeline('template clause', 'rightDelim');
        }
        return { type: 'template', offset: item.offset };
      }
    }
    this.index -= 1;
    this.pipeline('command', 'rightDelim');
    return { type: 'action', offset: item.offset };
  }

  private control(context: 'if' | 'range' | 'with', offset: number): TemplateNode {
    const savedVars = this.vars.length;
    this.pipeline(context, 'rightDelim');
    if (context === 'range') this.rangeDepth++;
    const first = this.itemList();
    if (context === 'range') this.rangeDepth--;
    let end = first.end;
    if (end.type === 'else') {
      const following = this.peek().type;
      if ((context === 'if' && following === 'if') || (context === 'with' && following === 'with')) {
        // {{else if ...}} / {{else with ...}}: a nested control that ends at the shared {{end}}.
        const nested = this.next();
        this.control(context, nested.offset);
      } else {
        end = this.itemList().end;
        if (end.type !== 'end') this.error(end.offset, `expected end; found ${end.label}`);
      }
    }
    this.vars = this.vars.slice(0, savedVars);
    return { type: context, offset };
  }

  private blockControl(item: Item): TemplateNode {
    const context = 'block clause';
    const nameItem = this.nextNonSpace();
    const name = this.templateName(nameItem, context);
    this.pipeline(context, 'rightDelim');
    const saved = this.enterNewTree();
    const { list, end } = this.itemList();
    if (end.type !== 'end') this.error(end.offset, `unexpected ${end.label} in ${context}`);
    this.add(name, list);
    this.leaveTree(saved);
    return { type: 'template', offset: item.offset };
  }

  private templateName(item: Item, context: string): string {
    if (item.type !== 'string' && item.type !== 'rawString') this.unexpected(item, context);
    const name = unquoteGoString(item.value);
    if (name === undefined) this.error(item.offset, 'invalid syntax');
    return name;
  }
}

/** Go's IsEmptyTree: only white space (unicode.IsSpace) as text; comments are not kept at all. */
function isEmptyNode(node: TemplateNode): boolean {
  return node.type === 'text' && /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/.test(node.text ?? '');
}
