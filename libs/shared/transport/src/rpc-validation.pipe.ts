import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { parseRequest } from '@lookup/contracts';

const PRIMITIVES: unknown[] = [String, Number, Boolean, Object, Array];

/** Validates a message payload against the handler's DTO class: the second end of "validated at both ends". */
@Injectable()
export class RpcValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const cls = metadata.metatype;
    if (!cls || PRIMITIVES.includes(cls)) return value;
    return parseRequest(cls as new () => object, value);
  }
}
