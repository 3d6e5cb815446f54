/** An error whose `detail` is safe to show the user, with its HTTP status. */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly detail: string,
    public readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'HttpError';
  }
}
