/**
 * The text of one scrape file, with every repeated item written once.
 *
 * Generated jobs repeat themselves: every ServiceMonitor endpoint's job carries the same dozen relabelings (the
 * job label, the namespace, service, pod and container labels, the pod phase filter, the sharding rules), and
 * monitors of one team share their selector and port rules too. Written out, those repeats are four fifths of a
 * large configuration (about 1.6 of each job's 2 KiB for a plain two-endpoint ServiceMonitor), and every byte is
 * paid again by the API server, etcd, every watcher of the Secrets, the kubelet and Prometheus. So within a file,
 * an item (a mapping in one of a job's lists, e.g. a relabeling) that occurs more than once is written in full the
 * first time, with a YAML anchor (`- &r3`), and as an alias (`- *r3`) after that. YAML readers, Prometheus' among
 * them, expand an alias to the very node it names, so the configuration Prometheus loads is the one the plain
 * text would give: only the bytes change.
 *
 * Anchors are per file (YAML has no others) and numbered in order of first use, so equal jobs in equal order give
 * equal text and a change to one monitor still changes one file. Aliased text is never longer than plain text (an
 * item is shared only when it is longer than an alias line and an anchor together), so every size decision made
 * on the plain sizes (the number of files, what fits into one) holds for the written text. gopkg.in/yaml.v2, which
 * Prometheus reads its configuration with, refuses a document whose alias expansions outweigh its own nodes
 * (more than 99 % of decoded nodes from aliases for documents of up to 400,000 nodes; a file holds at most 900 KiB
 * of plain text, far fewer nodes); here about three quarters of a job's nodes come from aliases.
 */

/**
 * Items shorter than this are written out even when they repeat: an alias line (`  - *r12`) and the anchor
 * (`&r12` and a line break) cost about 20 bytes between them.
 */
const MIN_SHARED_ITEM_CHARS = 48;

/**
 * The jobs of one scrape file (each as `jobSegments` cut it: text at even indices, items at odd ones) as YAML
 * sequence text, each item that occurs more than once written in full once and as an alias after that.
 */
export function sharedItemsText(jobs: readonly (readonly string[])[]): string {
  const occurrences = new Map<string, number>();
  for (const segments of jobs) {
    for (let index = 1; index < segments.length; index += 2) {
      const item = segments[index]!;
      if (item.length >= MIN_SHARED_ITEM_CHARS) occurrences.set(item, (occurrences.get(item) ?? 0) + 1);
    }
  }
  const anchors = new Map<string, string>();
  const parts: string[] = [];
  for (const segments of jobs) {
    for (let index = 0; index < segments.length; index += 1) {
      const segment = segments[index]!;
      if (index % 2 === 0 || (occurrences.get(segment) ?? 0) < 2) {
        parts.push(segment);
        continue;
      }
      // An item is `<indent>- <first key>: ...`; its indentation is the text before the dash.
      const indent = segment.slice(0, segment.indexOf('-'));
      const anchor = anchors.get(segment);
      if (anchor !== undefined) {
        parts.push(indent, '- *', anchor, '\n');
        continue;
      }
      const name = `r${anchors.size}`;
      anchors.set(segment, name);
      // The anchor goes on the dash's line and the mapping starts on the next, at the indentation its other keys have.
      parts.push(indent, '- &', name, '\n', indent, '  ', segment.slice(indent.length + 2));
    }
  }
  return parts.join('');
}
