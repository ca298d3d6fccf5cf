import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { isStrongPassword } from '@kefu/protocol';

/**
 * Password hashing: argon2id, the library's default algorithm (asserted in tests).
 */
export const hashPassword = (password: string): Promise<string> => hash(password);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash must read as "wrong password", never as a server error that leaks detail.
    return false;
  }
}

export { isStrongPassword };

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

/** Random password from an unambiguous alphabet that always satisfies isStrongPassword. */
export function generatePassword(length = 16): string {
  for (;;) {
    let out = '';
    for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
    if (isStrongPassword(out)) return out;
  }
}

/**
 * A fixed hash verified when the username is unknown, so response time does not reveal which
 * usernames exist. Computed lazily once per process.
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hash(generatePassword());
  return decoy;
}
