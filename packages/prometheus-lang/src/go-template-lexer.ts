/**
 * The items of a Go text/template (text/template/parse/lex.go, Go 1.26): text, delimiters with
 * their trim markers, comments, and inside actions the words, strings, numbers and punctuation
 * the parser reads. Used by go-template.ts.
 */

/** What an item is (Go's itemType). */
export type ItemType =
  | 'error' | 'bool' | 'char' | 'charConstant' | 'complex' | 'assign' | 'declare' | 'EOF' | 'field' | 'identifier'
  | 'leftDelim' | 'leftParen' | 'number' | 'pipe' | 'rawString' | 'rightDelim' | 'rightParen' | 'space' | 'string'
  | 'text' | 'variable'
  | 'block' | 'break' | 'continue' | 'dot' | 'define' | 'else' | 'end' | 'if' | 'nil' | 'range' | 'template' | 'with';

/** One item: its type, its text and where it starts. */
export interface Item {
  type: ItemType;
  value: string;
  offset: number;
}

const KEYWORDS: Readonly<Record<string, ItemType>> = {
  block: 'block', break: 'break', continue: 'continue', define: 'define', else: 'else', end: 'end', if: 'if',
  range: 'range', nil: 'nil', template: 'template', with: 'with',
};

const LEFT_DELIM = '{{';
const RIGHT_DELIM = '}}';
const isSpace = (ch: string | undefined): boolean => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isAlphaNumeric = (ch: string | undefined): boolean => {
  if (ch === undefined) return false;
  if (ch.length === 1 && ch.charCodeAt(0) < 0x80) return ch === '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
  return /^[\p{L}\p{Nd}]$/u.test(ch);
};
const hasLeftTrimMarkerAt = (s: string, at: number): boolean => s[at] === '-' && isSpace(s[at + 1]);
const hasRightTrimMarkerAt = (s: string, at: number): boolean => isSpace(s[at]) && s[at + 1] === '-';
/** Go trims only its own space characters around `{{-` and `-}}`, not every Unicode space. */
const trimGoSpacesEnd = (s: string): string => s.replace(/[ \t\r\n]+$/, '');
const goSpacesAt = (s: string, at: number): number => /^[ \t\r\n]*/.exec(s.slice(at))![0].length;

/** All items up to EOF, or up to the first lexical error (which Go reports when the parser reaches it). */
export function lexTemplate(input: string): { items: Item[]; error?: Item } {
  const items: Item[] = [];
  let pos = 0;
  let start = 0;
  let parenDepth = 0;
  const peek = (): string | undefined => {
    if (pos >= input.length) return undefined;
    const unit = input.charCodeAt(pos);
    return unit < 0xd800 || unit > 0xdfff ? input[pos] : String.fromCodePoint(input.codePointAt(pos)!);
  };
  const next = (): string | undefined => {
    const ch = peek();
    if (ch !== undefined) pos += ch.length;
    return ch;
  };
  const accept = (valid: string): boolean => {
    const ch = peek();
    if (ch !== undefined && valid.includes(ch)) {
      pos += ch.length;
      return true;
    }
    return false;
  };
  const acceptRun = (valid: string): void => {
    while (accept(valid));
  };
  const emit = (type: ItemType): void => {
    items.push({ type, value: input.slice(start, pos), offset: start });
    start = pos;
  };
  const fail = (message: string): { items: Item[]; error: Item } => ({ items, error: { type: 'error', value: message, offset: start } });
  const atRightDelim = (): { delim: boolean; trim: boolean } => {
    if (hasRightTrimMarkerAt(input, pos) && input.startsWith(RIGHT_DELIM, pos + 2)) return { delim: true, trim: true };
    return { delim: input.startsWith(RIGHT_DELIM, pos), trim: false };
  };
  const atTerminator = (): boolean => {
    const ch = peek();
    if (ch === undefined || isSpace(ch) || '.,|:)('.includes(ch)) return true;
    return input.startsWith(RIGHT_DELIM, pos);
  };
  const scanNumber = (): boolean => {
    accept('+-');
    let digits = '0123456789_';
    if (accept('0')) {
      if (accept('xX')) digits = '0123456789abcdefABCDEF_';
      else if (accept('oO')) digits = '01234567_';
      else if (accept('bB')) digits = '01_';
    }
    acceptRun(digits);
    if (accept('.')) acceptRun(digits);
    if (digits.length === 11 && accept('eE')) {
      accept('+-');
      acceptRun('0123456789_');
    }
    if (digits.length === 23 && accept('pP')) {
      accept('+-');
      acceptRun('0123456789_');
    }
    accept('i');
    if (isAlphaNumeric(peek())) {
      next();
      return false;
    }
    return true;
  };

  /** Up to the closing `quote` (backslash escapes skipped); false at a newline or the end. */
  const scanQuoted = (quote: string): boolean => {
    for (;;) {
      const c = next();
      if (c === '\\') {
        const escaped = next();
        if (escaped !== undefined && escaped !== '\n') continue;
        return false;
      }
      if (c === undefined || c === '\n') return false;
      if (c === quote) return true;
    }
  };

  let insideAction = false;
  for (;;) {
    if (!insideAction) {
      // Text up to the next "{{" (trimmed when the delimiter is "{{- ").
      const found = input.indexOf(LEFT_DELIM, pos);
      if (found < 0) {
        pos = input.length;
        if (pos > start) emit('text');
        items.push({ type: 'EOF', value: '', offset: pos });
        return { items };
      }
      pos = found;
      if (pos > start) {
        let textEnd = pos;
        if (hasLeftTrimMarkerAt(input, pos + LEFT_DELIM.length)) textEnd = start + trimGoSpacesEnd(input.slice(start, pos)).length;
        if (textEnd > start) items.push({ type: 'text', value: input.slice(start, textEnd), offset: start });
        start = pos;
      }
      pos += LEFT_DELIM.length;
      const trim = hasLeftTrimMarkerAt(input, pos);
      const afterMarker = trim ? 2 : 0;
      if (input.startsWith('/*', pos + afterMarker)) {
        pos += afterMarker;
        start = pos;
        const end = input.indexOf('*/', pos + 2);
        if (end < 0) return fail('unclosed comment');
        pos = end + 2;
        const { delim, trim: trimAfter } = atRightDelim();
        if (!delim) return fail('comment ends before closing delimiter');
        pos += (trimAfter ? 2 : 0) + RIGHT_DELIM.length;
        if (trimAfter) pos += goSpacesAt(input, pos);
        start = pos;
        continue;
      }
      emit('leftDelim');
      insideAction = true;
      pos += afterMarker;
      start = pos;
      parenDepth = 0;
      continue;
    }
    // Inside an action.
    const { delim, trim } = atRightDelim();
    if (delim) {
      if (parenDepth !== 0) return fail('unclosed left paren');
      if (trim) {
        pos += 2;
        start = pos;
      }
      pos += RIGHT_DELIM.length;
      emit('rightDelim');
      if (trim) {
        pos += goSpacesAt(input, pos);
        start = pos;
      }
      insideAction = false;
      continue;
    }
    const ch = next();
    if (ch === undefined) return fail('unclosed action');
    if (isSpace(ch)) {
      // A run of spaces; the one before " -}}" belongs to the trim marker.
      let spaces = 1;
      while (isSpace(peek())) {
        next();
        spaces++;
      }
      if (hasRightTrimMarkerAt(input, pos - 1) && input.startsWith(RIGHT_DELIM, pos + 1)) {
        pos -= 1;
        if (spaces === 1) continue;
      }
      emit('space');
      continue;
    }
    switch (ch) {
      case '=':
        emit('assign');
        continue;
      case ':':
        if (next() !== '=') return fail('expected :=');
        emit('declare');
        continue;
      case '|':
        emit('pipe');
        continue;
      case '"':
        if (!scanQuoted('"')) return fail('unterminated quoted string');
        emit('string');
        continue;
      case '`':
        for (;;) {
          const c = next();
          if (c === undefined) return fail('unterminated raw quoted string');
          if (c === '`') break;
        }
        emit('rawString');
        continue;
      case '$':
      case '.': {
        if (ch === '.' && pos < input.length && input[pos]! >= '0' && input[pos]! <= '9') break; // a number such as .5
        const type: ItemType = ch === '$' ? 'variable' : 'field';
        if (atTerminator()) {
          emit(ch === '$' ? 'variable' : 'dot');
          continue;
        }
        let last: string | undefined;
        for (;;) {
          last = peek();
          if (!isAlphaNumeric(last)) break;
          next();
        }
        if (!atTerminator()) return fail(`bad character ${describeRune(last)}`);
        emit(type);
        continue;
      }
      case "'":
        if (!scanQuoted("'")) return fail('unterminated character constant');
        emit('charConstant');
        continue;
      case '(':
        parenDepth++;
        emit('leftParen');
        continue;
      case ')':
        parenDepth--;
        if (parenDepth < 0) return fail('unexpected right paren');
        emit('rightParen');
        continue;
    }
    if (ch === '.' || ch === '+' || ch === '-' || (ch >= '0' && ch <= '9')) {
      pos = start;
      if (!scanNumber()) return fail(`bad number syntax: "${input.slice(start, pos)}"`);
      const sign = peek();
      if (sign === '+' || sign === '-') {
        if (!scanNumber() || input[pos - 1] !== 'i') return fail(`bad number syntax: "${input.slice(start, pos)}"`);
        emit('complex');
      } else {
        emit('number');
      }
      continue;
    }
    if (isAlphaNumeric(ch)) {
      while (isAlphaNumeric(peek())) next();
      const word = input.slice(start, pos);
      if (!atTerminator()) return fail(`bad character ${describeRune(peek())}`);
      const keyword = Object.hasOwn(KEYWORDS, word) ? KEYWORDS[word] : undefined;
      emit(keyword ?? (word === 'true' || word === 'false' ? 'bool' : 'identifier'));
      continue;
    }
    if (ch.codePointAt(0)! <= 0x7f && /^[\x20-\x7e]$/.test(ch)) {
      emit('char');
      continue;
    }
    return fail(`unrecognized character in action: ${describeRune(ch)}`);
  }
}

/** Go's %#U: `U+0023 '#'`. */
export function describeRune(ch: string | undefined): string {
  if (ch === undefined) return 'U+FFFFFFFF';
  const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  return /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(ch) ? `U+${code} '${ch}'` : `U+${code}`;
}

