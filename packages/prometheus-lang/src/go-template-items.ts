/**
 * Reading the items of Go's template lexer as text/template/parse/parse.go does: one item of look-ahead, spaces
 * skipped where Go skips them, and the errors Go reports (a lexical error when the parser reaches it, "unexpected
 * <item> in <context>").
 */
import type { Item, ItemType } from './go-template-lexer.ts';
import { ParseStop } from './parse-stop.ts';

/** The items of one template and the position in them. */
export class TemplateItemReader {
  protected index = 0;
  private readonly items: Item[];

  constructor(items: Item[], lexError: Item | undefined) {
    // A lexical error is an item: Go reports it when the parser reaches it.
    this.items = lexError ? [...items, lexError] : items;
  }

  // ---- items ----

  protected peek(): Item {
    return this.items[this.index] ?? { type: 'EOF', value: '', offset: 0 };
  }

  protected next(): Item {
    const item = this.peek();
    if (this.index < this.items.length) this.index++;
    return item;
  }

  protected nextNonSpace(): Item {
    let item = this.next();
    while (item.type === 'space') item = this.next();
    return item;
  }

  protected peekNonSpace(): Item {
    const item = this.nextNonSpace();
    this.index -= 1;
    return item;
  }

  protected error(offset: number, message: string): never {
    throw new ParseStop(offset, message);
  }

  protected unexpected(item: Item, context: string): never {
    if (item.type === 'error') this.error(item.offset, item.value);
    this.error(item.offset, `unexpected ${describeItem(item)} in ${context}`);
  }

  protected expect(type: ItemType, context: string): Item {
    const item = this.nextNonSpace();
    if (item.type !== type) this.unexpected(item, context);
    return item;
  }
}

/** How Go names an item in "unexpected <item> in <context>". */
function describeItem(item: Item): string {
  if (item.type === 'EOF') return 'EOF';
  if (['block', 'break', 'continue', 'dot', 'define', 'else', 'end', 'if', 'nil', 'range', 'template', 'with'].includes(item.type)) return `<${item.value}>`;
  return JSON.stringify(item.value.length > 10 ? `${item.value.slice(0, 10)}...` : item.value);
}
