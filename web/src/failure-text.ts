import { ApiError } from './api.js';
import { visibleText } from './visible-text.js';

/** The sentence a person reads about a failed request: the API's own words, or that it was not reached. */
export function failureText(err: unknown): string {
  if (err instanceof ApiError) return visibleText(err.message);
  return 'The server could not be reached. Is `toolseam serve` still running?';
}
