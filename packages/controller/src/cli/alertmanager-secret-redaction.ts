/**
 * Keeps credentials out of a printed alertmanager.yaml. Value-based redaction (secret-redaction.ts) is not enough
 * there: the base configuration is itself the content of a Secret, written by the platform with its SMTP password,
 * Slack URL or PagerDuty key inline, and a URL read from a team's Secret is trimmed before it is inlined. So every
 * field Alertmanager types as a secret (`config.Secret`, `config.SecretURL`, prometheus/common's `Secret`: what its
 * own /api/v2/status prints as `<secret>`) is masked by position, whatever YAML style it is written in.
 */
import { EVENT_ID, SCALAR_STYLE, getScalarValue, parseEvents, type Event, type ScalarEvent } from 'js-yaml';
import { REDACTED } from './secret-redaction.ts';

/** Fields that hold a secret wherever they appear (a receiver's, `global`'s, an HTTP client's). */
const SECRET_FIELDS = new Set([
  // global
  'smtp_auth_password', 'smtp_auth_secret', 'slack_api_url', 'opsgenie_api_key', 'wechat_api_secret', 'victorops_api_key',
  'telegram_bot_token', 'rocketchat_token', 'rocketchat_token_id',
  // receivers
  'auth_password', 'auth_secret', 'service_key', 'routing_key', 'api_key', 'api_secret', 'user_key', 'token', 'token_id',
  'bot_token', 'webhook_url', 'alert_source_token', 'access_key', 'secret_key',
  // prometheus/common's HTTP client: every value of proxy_connect_header, and http_headers' `secrets` lists
  'password', 'credentials', 'bearer_token', 'client_secret', 'proxy_connect_header', 'secrets',
]);

/** Fields that hold a secret only under one parent: the same name elsewhere is a plain URL or a file path. */
const SECRET_FIELDS_UNDER: Readonly<Record<string, readonly string[]>> = {
  api_url: ['slack_configs'],
  url: ['webhook_configs', 'incidentio_configs'],
  key: ['tls_config'],
};

/** Whether the value of `key`, in a mapping that sits under `parent`, is a secret. */
function isSecretField(key: string | undefined, parent: string | undefined): boolean {
  if (key === undefined) return false;
  if (SECRET_FIELDS.has(key)) return true;
  return parent !== undefined && (Object.hasOwn(SECRET_FIELDS_UNDER, key) ? SECRET_FIELDS_UNDER[key]!.includes(parent) : false);
}

/** An open mapping or sequence while the events are walked. */
interface Collection {
  kind: 'mapping' | 'sequence';
  /** Everything inside is a secret value (mapping keys excepted). */
  secret: boolean;
  /** The mapping key this collection is the value of (a sequence passes its own to its items). */
  parent: string | undefined;
  /** Mappings: whether the next node is a key, and the last key read. */
  expectingKey: boolean;
  key?: string | undefined;
}

/**
 * `text` (an alertmanager.yaml) with the value of every secret field replaced by REDACTED, the rest byte for byte.
 * Text that is not YAML is replaced whole: nothing of it can be shown safely.
 */
export function redactAlertmanagerSecrets(text: string): string {
  let events: Event[];
  try {
    events = parseEvents(text, {});
  } catch {
    return `${REDACTED}\n`;
  }
  // An alias in a secret field makes its anchored node secret too; walk again until no new anchor turns up.
  const secretAnchors = new Set<string>();
  for (;;) {
    const found = secretScalars(text, events, secretAnchors);
    if (found.newAnchors.length === 0) return replaceRanges(text, found.scalars);
    for (const anchor of found.newAnchors) secretAnchors.add(anchor);
  }
}

/** The scalars holding secrets, and the anchors aliased from a secret position that are not in `secretAnchors` yet. */
function secretScalars(text: string, events: readonly Event[], secretAnchors: ReadonlySet<string>): { scalars: ScalarEvent[]; newAnchors: string[] } {
  const scalars: ScalarEvent[] = [];
  const newAnchors: string[] = [];
  const stack: Collection[] = [];
  const anchorOf = (event: { anchorStart: number; anchorEnd: number }) => (event.anchorStart === -1 ? undefined : text.slice(event.anchorStart, event.anchorEnd));
  /** Where the next node sits: as a mapping key, or as a value (secret or not, and under which key). */
  const position = () => {
    const top = stack.at(-1);
    if (!top) return { isKey: false, secret: false, parent: undefined };
    if (top.kind === 'sequence') return { isKey: false, secret: top.secret, parent: top.parent };
    if (top.expectingKey) return { isKey: true, secret: false, parent: top.key };
    return { isKey: false, secret: top.secret || isSecretField(top.key, top.parent), parent: top.key };
  };
  /** A node of the top mapping is complete: a key is followed by its value, a value by the next key. */
  const done = () => {
    const top = stack.at(-1);
    if (top?.kind === 'mapping') top.expectingKey = !top.expectingKey;
  };
  for (const event of events) {
    if (event.type === EVENT_ID.SCALAR) {
      const at = position();
      const anchor = anchorOf(event);
      if (at.isKey) stack.at(-1)!.key = getScalarValue(text, event);
      else if ((at.secret || (anchor !== undefined && secretAnchors.has(anchor))) && event.valueEnd > event.valueStart) scalars.push(event);
      done();
    } else if (event.type === EVENT_ID.ALIAS) {
      const at = position();
      const anchor = text.slice(event.anchorStart, event.anchorEnd);
      if (at.isKey) stack.at(-1)!.key = undefined;
      else if (at.secret && !secretAnchors.has(anchor)) newAnchors.push(anchor);
      done();
    } else if (event.type === EVENT_ID.MAPPING || event.type === EVENT_ID.SEQUENCE) {
      const at = position();
      if (at.isKey) stack.at(-1)!.key = undefined;
      const anchor = anchorOf(event);
      const secret = !at.isKey && (at.secret || (anchor !== undefined && secretAnchors.has(anchor)));
      stack.push({ kind: event.type === EVENT_ID.MAPPING ? 'mapping' : 'sequence', secret, parent: at.parent, expectingKey: true });
    } else if (event.type === EVENT_ID.POP) {
      // A document's end pops nothing of ours (the stack is empty then).
      if (stack.pop()) done();
    }
  }
  return { scalars, newAnchors };
}

/** `text` with each scalar's value replaced; a block scalar keeps its indentation, so the lines still read as YAML. */
function replaceRanges(text: string, scalars: readonly ScalarEvent[]): string {
  let result = '';
  let from = 0;
  for (const scalar of [...scalars].sort((a, b) => a.valueStart - b.valueStart)) {
    if (scalar.valueStart < from) continue;
    const block = scalar.style === SCALAR_STYLE.LITERAL_BLOCK || scalar.style === SCALAR_STYLE.FOLDED_BLOCK;
    result += text.slice(from, scalar.valueStart) + (block ? `${' '.repeat(Math.max(scalar.indent, 0))}${REDACTED}\n` : REDACTED);
    from = scalar.valueEnd;
  }
  return result + text.slice(from);
}
