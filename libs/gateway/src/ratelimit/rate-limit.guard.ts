import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { TOKEN_STORE, TokenStore } from './token-store';
import { RateLimiter } from './rate-limiter';
import type { KeyedRequest } from '../http/api-key.guard';

/**
 * Runs after ApiKeyGuard (registered after it), on the key it found; public routes have none.
 * Before any handler, so a refused request costs no quota and no service work.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  readonly limiter: RateLimiter;

  constructor(@Inject(TOKEN_STORE) store: TokenStore) {
    this.limiter = new RateLimiter(store);
  }

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const key = ctx.switchToHttp().getRequest<KeyedRequest>().apiKey;
    if (key) await this.limiter.take(key);
    return true;
  }
}
