/** An error whose `detail` is safe to show the user, with its HTTP status. */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly detail: string,
    public readonly headers: Record<string, string> = {},
    /** More fields of the JSON answer (the contact form's `errors` per field). */
    public readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
    this.name = 'HttpError';
  }
}
