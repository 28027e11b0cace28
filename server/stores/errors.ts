/** Thrown by a store that cannot answer in time (Redis down, hung or overloaded); the API answers 503. */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}
