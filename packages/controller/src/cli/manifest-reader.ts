/**
 * Reads Kubernetes manifests from files and directories for offline rendering (`promop render`):
 * multi-document YAML (or JSON), `kind: List` flattened, and the defaults the API server would
 * have applied where rendering depends on them. Unreadable files and malformed YAML are errors;
 * kinds promop does not use are counted, not rejected.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FieldProblem, KeyValueSource, NamespaceInfo } from '@promop/config-generator';
import { isKind, type Kind } from '@promop/crds/kinds';
import { loadManifestDocuments } from './kubectl-yaml.ts';

/** `promop render` reads every kind of the registry; everything else is counted as ignored. */
export type RenderedKind = Kind;

/** One custom resource as read, not yet validated, with where it came from. */
export interface ManifestResource {
  kind: RenderedKind;
  namespace: string;
  name: string;
  /** `file` or `file#<document index>` when the file holds several documents. */
  source: string;
  object: Record<string, unknown>;
}

/** Everything read from the given paths. */
export interface Manifests {
  resources: ManifestResource[];
  /** Declared Namespaces, plus every namespace an object lives in that has no Namespace manifest. */
  namespaces: NamespaceInfo[];
  /** The names of the Namespaces the manifests declare (`kind: Namespace`). */
  declaredNamespaces: string[];
  secrets: KeyValueSource[];
  configMaps: KeyValueSource[];
  /**
   * Secrets, ConfigMaps and Namespaces the API server would refuse (a value or label that is not a string, e.g. an
   * unquoted `yes`, which kubectl sends as true): left out, as the API server would leave them out.
   */
  refused: { kind: string; namespace: string; name: string; source: string; problems: FieldProblem[] }[];
  /** Count of documents per kind that promop render does not use (Service, Alertmanager...). */
  ignoredKinds: Record<string, number>;
  /** Objects that had no metadata.uid and got a placeholder (see placeholderUid). */
  placeholderUids: number;
}

/** A path that could not be read or a document that is not a Kubernetes object: the input is unusable. */
export class ManifestReadError extends Error {
  override name = 'ManifestReadError';
}

/** Namespace used when a namespaced object has no metadata.namespace, as kubectl apply would. */
export const DEFAULT_NAMESPACE = 'default';

/** How manifests are read. */
export interface ManifestOptions {
  /** The namespace of objects that name none (kubectl: `-n`, else the context's); default `default`. */
  defaultNamespace?: string;
}

/** Reads every manifest under `paths` (files, or directories searched recursively for .yaml/.yml/.json). */
export async function readManifests(paths: readonly string[], options: ManifestOptions = {}): Promise<Manifests> {
  const files: string[] = [];
  for (const path of paths) files.push(...(await manifestFiles(path)));
  const documents: { source: string; object: Record<string, unknown> }[] = [];
  for (const file of files) documents.push(...parseManifestText(await readText(file), file));
  return collectManifests(documents, options);
}

/**
 * Parses the text of one manifest file into objects (`kind: List` items flattened). Throws
 * ManifestReadError for malformed YAML or a document that is not a mapping.
 */
export function parseManifestText(text: string, file: string): { source: string; object: Record<string, unknown> }[] {
  let documents: unknown[];
  try {
    const loaded = loadManifestDocuments(text, file);
    const notJson = loaded.notJson[0];
    if (notJson) {
      const source = loaded.documents.length > 1 ? `${file}#${notJson.document}` : file;
      throw new ManifestReadError(`${source}: ${notJson.path || '(document)'}: ${String(notJson.value)} is not a number JSON can hold (YAML's .inf/.nan): kubectl refuses the file`);
    }
    documents = loaded.documents;
  } catch (error) {
    if (error instanceof ManifestReadError) throw error;
    // Only the reason and position: js-yaml's message quotes the surrounding lines, which may be Secret data.
    const { reason, mark } = error as { reason?: string; mark?: { line: number; column: number } };
    const where = mark ? ` at line ${mark.line + 1}, column ${mark.column + 1}` : '';
    throw new ManifestReadError(`${file}: not valid YAML: ${reason ?? 'cannot be parsed'}${where}`);
  }
  const present = documents.filter((document) => document !== null && document !== undefined);
  const out: { source: string; object: Record<string, unknown> }[] = [];
  present.forEach((document, index) => {
    const source = present.length > 1 ? `${file}#${index}` : file;
    if (!isObject(document)) throw new ManifestReadError(`${source}: expected a Kubernetes object, found ${Array.isArray(document) ? 'a list' : JSON.stringify(document)}`);
    if (document.kind === 'List' || (typeof document.kind === 'string' && document.kind.endsWith('List') && Array.isArray(document.items))) {
      const items = Array.isArray(document.items) ? document.items : [];
      items.forEach((item: unknown, itemIndex) => {
        if (!isObject(item)) throw new ManifestReadError(`${source}: items[${itemIndex}] is not a Kubernetes object`);
        out.push({ source: `${source} items[${itemIndex}]`, object: item });
      });
    } else {
      out.push({ source, object: document });
    }
  });
  return out;
}

/** Sorts parsed objects into what rendering needs, applying namespace and uid defaults. */
export function collectManifests(documents: readonly { source: string; object: Record<string, unknown> }[], options: ManifestOptions = {}): Manifests {
  const defaultNamespace = options.defaultNamespace ?? DEFAULT_NAMESPACE;
  const manifests: Manifests = { resources: [], namespaces: [], declaredNamespaces: [], secrets: [], configMaps: [], refused: [], ignoredKinds: {}, placeholderUids: 0 };
  const declaredNamespaces = new Map<string, NamespaceInfo>();
  const usedNamespaces = new Set<string>();
  for (const { source, object } of documents) {
    const kind = typeof object.kind === 'string' ? object.kind : '(no kind)';
    const metadata = isObject(object.metadata) ? object.metadata : {};
    const name = typeof metadata.name === 'string' ? metadata.name : '';
    if (kind === 'Namespace' || kind === 'Secret' || kind === 'ConfigMap') {
      const namespace = kind === 'Namespace' ? '' : typeof metadata.namespace === 'string' && metadata.namespace !== '' ? metadata.namespace : defaultNamespace;
      const fields = kind === 'Secret' ? ['data', 'stringData'] : kind === 'ConfigMap' ? ['data', 'binaryData'] : [];
      const problems = [
        ...nonStringValues(metadata.labels, 'metadata.labels'),
        ...nonStringValues(metadata.annotations, 'metadata.annotations'),
        ...fields.flatMap((field) => nonStringValues(object[field], field)),
      ];
      if (problems.length > 0) {
        manifests.refused.push({ kind, namespace, name, source, problems });
        continue;
      }
      if (kind === 'Namespace') {
        declaredNamespaces.set(name, { name, labels: { ...stringMap(metadata.labels), 'kubernetes.io/metadata.name': name } });
      } else if (kind === 'Secret') {
        manifests.secrets.push({ namespace, name, data: { ...decodeBase64Map(metadata, object.data, source), ...stringMap(object.stringData) } });
        usedNamespaces.add(namespace);
      } else {
        manifests.configMaps.push({ namespace, name, data: { ...decodeBase64Map(metadata, object.binaryData, source), ...stringMap(object.data) } });
        usedNamespaces.add(namespace);
      }
      continue;
    }
    const namespace = typeof metadata.namespace === 'string' && metadata.namespace !== '' ? metadata.namespace : defaultNamespace;
    if (isKind(kind)) {
      const withDefaults = { ...object, metadata: { ...metadata, namespace, ...(typeof metadata.uid === 'string' && metadata.uid !== '' ? {} : { uid: placeholderUid(kind, namespace, name) }) } };
      if (withDefaults.metadata.uid !== metadata.uid) manifests.placeholderUids++;
      manifests.resources.push({ kind, namespace, name, source, object: withDefaults });
      usedNamespaces.add(namespace);
    } else {
      manifests.ignoredKinds[kind] = (manifests.ignoredKinds[kind] ?? 0) + 1;
    }
  }
  manifests.declaredNamespaces = [...declaredNamespaces.keys()].sort();
  // The API server labels every Namespace with its own name; objects in a namespace without a
  // manifest still need that namespace for selection.
  for (const namespace of usedNamespaces) {
    if (!declaredNamespaces.has(namespace)) declaredNamespaces.set(namespace, { name: namespace, labels: { 'kubernetes.io/metadata.name': namespace } });
  }
  manifests.namespaces = [...declaredNamespaces.values()].sort((a, b) => a.name.localeCompare(b.name));
  return manifests;
}

/**
 * A stable stand-in for metadata.uid, which only the API server assigns: UUID-shaped, derived from
 * kind/namespace/name, so rule file names are the same on every run.
 */
export function placeholderUid(kind: string, namespace: string, name: string): string {
  const hex = createHash('sha256').update(`${kind}/${namespace}/${name}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

async function manifestFiles(path: string): Promise<string[]> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    throw new ManifestReadError(`${path}: cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (!info.isDirectory()) return [path];
  const entries = await readdir(path, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name.startsWith('.')) continue;
    const child = join(path, entry.name);
    if (entry.isDirectory()) files.push(...(await manifestFiles(child)));
    else if (/\.(ya?ml|json)$/i.test(entry.name)) files.push(child);
  }
  return files;
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new ManifestReadError(`${file}: cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A problem per value of the map at `path` that is not a string: the API server refuses such an object (its
 * labels, annotations and data are maps of strings), where turning `true` back into text would quietly make
 * "true" of what was written `yes`.
 */
function nonStringValues(value: unknown, path: string): FieldProblem[] {
  if (!isObject(value)) return [];
  return Object.entries(value)
    .filter(([, item]) => typeof item !== 'string')
    .map(([key, item]) => ({ path: `${path}${/^[A-Za-z_$][\w$-]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`, message: `must be a string, not ${describeYamlValue(item)}` }));
}

/** A non-string value as the user should read it, with why YAML made it one. */
export function describeYamlValue(value: unknown): string {
  if (typeof value === 'boolean') return `${value} (YAML as kubectl reads it makes unquoted y/yes/on/true and n/no/off/false booleans: quote the value)`;
  if (typeof value === 'number') return `the number ${value} (unquoted digits are a number, 0x10 and 010 too: quote the value)`;
  if (value === null) return 'null (an empty or ~ value: quote it, or give one)';
  return Array.isArray(value) ? 'a list' : 'an object';
}

/** String values of a map (callers refused non-strings first: nonStringValues). */
function stringMap(value: unknown): Record<string, string> {
  if (!isObject(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, typeof item === 'string' ? item : String(item)]));
}

function decodeBase64Map(metadata: Record<string, unknown>, value: unknown, source: string): Record<string, string> {
  const encoded = stringMap(value);
  const decoded: Record<string, string> = {};
  for (const [key, text] of Object.entries(encoded)) {
    if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(text)) {
      throw new ManifestReadError(`${source}: ${String(metadata.name)} data.${key} is not base64`);
    }
    decoded[key] = Buffer.from(text, 'base64').toString('utf8');
  }
  return decoded;
}
