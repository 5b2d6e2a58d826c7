/**
 * Errors from the API server as values: promop's RawApi throws KubeApiError; tests that use client-node's clients
 * throw its `ApiException`, whose `.message` embeds the request headers (a bearer token, stack.md). Nothing here
 * ever looks at `.message`: only `.code` and the Status object in `.body`. ApiException is recognised by its shape,
 * not by `instanceof`, so that `promop run` never loads client-node (docs/performance.md, P3).
 */
import { KubeApiError } from './raw-api.ts';

/** What promop keeps of a failed API call: the HTTP status and the Status message the API server wrote. */
export interface ApiError {
  code: number;
  /** The API server's own sentence (e.g. `... spec.template.spec.tolerations[0].operator: Unsupported value ...`). */
  message: string;
  /** The Status `reason` (`NotFound`, `Invalid`, `Conflict`, ...), when the body was a Status. */
  reason?: string;
}

/** The ApiError of `error`, or undefined when `error` is not an API response (network failure, bug). */
export function apiErrorOf(error: unknown): ApiError | undefined {
  const response = apiResponseOf(error);
  if (!response) return undefined;
  const { code } = response;
  const status = response.status as { message?: unknown; reason?: unknown } | undefined;
  const message = typeof status?.message === 'string' ? status.message : `HTTP ${code}`;
  const reason = typeof status?.reason === 'string' ? status.reason : undefined;
  return reason === undefined ? { code, message } : { code, message, reason };
}

/**
 * The HTTP status and the parsed body (a Status object, or undefined when the body was not JSON) of an API
 * server's refusal: a KubeApiError, or client-node's ApiException (an Error with a numeric `code`, a `body` and
 * the response `headers`); undefined for anything else (a network failure, a bug).
 */
export function apiResponseOf(error: unknown): { code: number; status: Record<string, unknown> | undefined } | undefined {
  let code: unknown;
  let body: unknown;
  if (error instanceof KubeApiError) {
    ({ code, body } = error);
  } else if (error instanceof Error && typeof (error as { code?: unknown }).code === 'number' && 'body' in error && 'headers' in error) {
    ({ code, body } = error as unknown as { code: number; body: unknown });
  } else {
    return undefined;
  }
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      body = undefined;
    }
  }
  return { code: typeof code === 'number' ? code : 0, status: body && typeof body === 'object' ? (body as Record<string, unknown>) : undefined };
}

/** Whether `error` is a 404 from the API server. */
export function isNotFound(error: unknown): boolean {
  return apiErrorOf(error)?.code === 404;
}

/**
 * Whether the API server rejected the request because of what a user wrote (422 Invalid, 400 BadRequest): such
 * an error is reported in status and not retried in a loop, since the same input fails the same way.
 */
export function isUserCaused(error: ApiError): boolean {
  return error.code === 422 || error.code === 400;
}

/** A one-line description of `error` that is safe to log: never the client's `.message` (it embeds headers). */
export function describeError(error: unknown): string {
  const api = apiErrorOf(error);
  if (api) return `API ${api.code}${api.reason ? ` ${api.reason}` : ''}: ${api.message}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
