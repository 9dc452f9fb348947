import { UserError } from '../errors.js';

/**
 * Bad input to sync: an object that cannot be rendered (names the object and the field), an unknown name in a
 * filter, or a bad opt-out value. Callers check it with `instanceof`, never by message.
 */
export class SyncInputError extends UserError {
  override readonly name = 'SyncInputError';
  /** Kind and name of the offending object, when one object is at fault. */
  readonly object: { readonly kind: string; readonly name: string } | undefined;
  /** The field path inside that object (e.g. `spec.group`), or the filter/option name. */
  readonly field: string | undefined;

  constructor(
    message: string,
    details: { object?: { kind: string; name: string }; field?: string; hint?: string } = {},
  ) {
    super(message, details.hint === undefined ? undefined : { hint: details.hint });
    this.object = details.object;
    this.field = details.field;
  }
}
