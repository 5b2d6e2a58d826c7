/**
 * Errors from the API server as values. client-node throws `ApiException` whose `.message` embeds the request
 * headers (a bearer token, stack.md), so nothing here ever looks at `.message`: only `.code` and the Status
 * object in `.body`.
 */
import { ApiException } from '@kubernetes/client-node';

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
  if (!(error instanceof ApiException)) return undefined;
  const code = typeof error.code === 'number' ? error.code : 0;
  const body: unknown = error.body;
  let status: { message?: unknown; reason?: unknown } | undefined;
  if (typeof body === 'string') {
    try {
      status = JSON.parse(body) as typeof status;
    } catch {
      status = undefined;
    }
  } else if (body && typeof body === 'object') {
    status = body as typeof status;
  }
  const message = typeof status?.message === 'string' ? status.message : `HTTP ${code}`;
  const reason = typeof status?.reason === 'string' ? status.reason : undefined;
  return reason === undefined ? { code, message } : { code, message, reason };
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
