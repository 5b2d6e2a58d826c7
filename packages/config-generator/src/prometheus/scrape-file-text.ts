/**
 * The text of one scrape file, with every repeated item written once.
 *
 * Generated jobs repeat themselves: every ServiceMonitor endpoint's job carries the same dozen relabelings (the
 * job label, the namespace, service, pod and container labels, the pod phase filter, the sharding rules), and
 * monitors of one team share their selector and port rules too. Written out, those repeats are most of a large
 * configuration (docs/performance.md, "Large configurations: scrape files"), and every byte is
 * paid again by the API server, etcd, every watcher of the Secrets, the kubelet and Prometheus. So within a file,
 * an item (a mapping in one of a job's lists, e.g. a relabeling) that occurs more than once is written in full the
 * first time, with a YAML anchor (`- &r3`), and as an alias (`- *r3`) after that. YAML readers, Prometheus' among
 * them, expand an alias to the very node it names, so the configuration Prometheus loads is the one the plain
 * text would give: only the bytes change.
 *
 * Anchors are per file (YAML has no others) and numbered in order of first use, so equal jobs in equal order give
 * equal text and a change to one monitor still changes one file. Aliased text is never longer than plain text (an
 * item is shared only when it is longer than an alias line and an anchor together), so every size decision made
 * on the plain sizes holds for the written text. gopkg.in/yaml.v2, which Prometheus reads its configuration with,
 * refuses a document whose alias expansions outweigh its own nodes (more than 99 % of decoded nodes from aliases
 * for documents of up to 400,000 nodes, less beyond): a file never stands for more than
 * SCRAPE_FILE_MAX_PLAIN_BYTES of plain text, which keeps it under that size (scrape-config-files.ts).
 */

/**
 * Items shorter than this are written out even when they repeat: an alias line (`  - *r12`) and the anchor
 * (`&r12` and a line break) cost about 20 bytes between them.
 */
const MIN_SHARED_ITEM_CHARS = 48;

/** How many times each item long enough to share occurs in `jobs` (jobSegments' items are at odd indices). */
function itemOccurrences(jobs: readonly (readonly string[])[]): Map<string, number> {
  const occurrences = new Map<string, number>();
  for (const segments of jobs) {
    for (let index = 1; index < segments.length; index += 2) {
      const item = segments[index]!;
      if (item.length >= MIN_SHARED_ITEM_CHARS) occurrences.set(item, (occurrences.get(item) ?? 0) + 1);
    }
  }
  return occurrences;
}

/** The indentation of an item: `<indent>- <first key>: ...`. */
function indentOf(item: string): string {
  return item.slice(0, item.indexOf('-'));
}

/** The name of the `n`th anchor of a file. */
function anchorName(n: number): string {
  return `r${n}`;
}

/**
 * The jobs of one scrape file (each as `jobSegments` cut it: text at even indices, items at odd ones) as YAML
 * sequence text, each item that occurs more than once written in full once and as an alias after that.
 */
export function sharedItemsText(jobs: readonly (readonly string[])[]): string {
  const occurrences = itemOccurrences(jobs);
  const anchors = new Map<string, string>();
  const parts: string[] = [];
  for (const segments of jobs) {
    for (let index = 0; index < segments.length; index += 1) {
      const segment = segments[index]!;
      if (index % 2 === 0 || (occurrences.get(segment) ?? 0) < 2) {
        parts.push(segment);
        continue;
      }
      const indent = indentOf(segment);
      const anchor = anchors.get(segment);
      if (anchor !== undefined) {
        parts.push(indent, '- *', anchor, '\n');
        continue;
      }
      const name = anchorName(anchors.size);
      anchors.set(segment, name);
      // The anchor goes on the dash's line and the mapping starts on the next, at the indentation its other keys have.
      parts.push(indent, '- &', name, '\n', indent, '  ', segment.slice(indent.length + 2));
    }
  }
  return parts.join('');
}

/**
 * How much shorter sharedItemsText(jobs) is than the jobs' plain text, without writing it: exact for ASCII text,
 * less for items holding other characters (lengths are counted in UTF-16 units, bytes may be more), so plain bytes
 * minus this is never below the written size. Used to choose the number of files before writing them.
 */
export function sharedItemsSaving(jobs: readonly (readonly string[])[]): number {
  let saving = 0;
  let anchors = 0;
  for (const [item, count] of itemOccurrences(jobs)) {
    if (count < 2) continue;
    const indent = indentOf(item).length;
    const name = anchorName(anchors).length;
    anchors += 1;
    // The first occurrence gains `&name`, a line break and the indentation of its first key; every other one is
    // replaced by `<indent>- *name` and a line break.
    const anchorCost = 1 + name + 1 + indent + 2;
    const aliasLength = indent + 3 + name + 1;
    saving += (count - 1) * (item.length - aliasLength) - anchorCost;
  }
  return saving;
}
