/**
 * What the server log may say about a failure's cause: its type and where it was thrown, never its
 * message, which can quote request content (a JSON parser quoting input, a provider echoing the
 * prompt). The requestId in the same log line ties it to the caller's error body.
 */
export function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return typeof cause;
  const frame = cause.stack
    ?.split('\n')
    .map((line) => line.trim())
    .find((line) => line.startsWith('at '));
  return frame === undefined ? cause.name : `${cause.name} ${frame}`;
}
