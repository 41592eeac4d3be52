const JWT_SHAPE = /eyJ[\w-]*\.[\w-]*\.[\w-]*/g;
const REDACTED = '[redacted]';

/** Removes a connection's secrets (and anything shaped like a JWT) from diagnostic text. */
export type SecretRedactor = (text: string) => string;

/** Builds a redactor for the given secret values. */
export function createSecretRedactor(secrets: readonly string[]): SecretRedactor {
  const needles = secrets.filter((secret) => secret.length > 0).sort((left, right) => right.length - left.length);
  return (text) => {
    let result = text;
    for (const needle of needles) result = result.split(needle).join(REDACTED);
    return result.replace(JWT_SHAPE, REDACTED);
  };
}
