import { z } from 'zod';
import { HttpError } from '../../lib/errors.ts';
import { verifyPassword } from './passwords.ts';
import type { UserRepository, UserRow } from './user.repository.ts';

const LoginBody = z.object({
  username: z.string().max(200),
  password: z.string().max(1000),
  remember: z.boolean().optional(),
});

export const AUTH_MESSAGES = {
  badCredentials: 'Nombre de usuario o contraseña incorrectos.',
  missingFields: 'Escribe tu nombre de usuario y tu contraseña.',
  loginOk: (firstName: string) => `¡Bienvenido(a), ${firstName}!`,
};

/** Login rules: generic message on failure, constant-time comparison. */
export class AuthService {
  readonly messages = AUTH_MESSAGES;
  constructor(private readonly users: UserRepository) {}

  async login(body: unknown, _ip: string): Promise<UserRow> {
    const parsed = LoginBody.safeParse(body);
    if (!parsed.success || !parsed.data.username.trim() || !parsed.data.password) {
      throw new HttpError(400, AUTH_MESSAGES.missingFields);
    }
    const user = await this.users.findByUserName(parsed.data.username.trim());
    const ok = await verifyPassword(user?.password_hash, parsed.data.password);
    if (!user || !ok) throw new HttpError(401, AUTH_MESSAGES.badCredentials);
    return user;
  }
}
