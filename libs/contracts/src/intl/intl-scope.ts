import { IsString, MaxLength } from 'class-validator';
import { Required } from '../validation';

/**
 * The `project` of an internal intl message. Never a caller's parameter: the gateway validates
 * the caller's params with the public DTO (which has no `project`, so sending one is
 * `unexpected_parameter`) and then adds the project of the authenticated API key.
 */
export function ProjectField(): PropertyDecorator {
  return (target: object, key: string | symbol) => {
    Required()(target, key);
    IsString()(target, key);
    MaxLength(100)(target, key);
  };
}
