import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { isParsedRequest, parseRequest } from '@lookup/contracts';

const PRIMITIVES: unknown[] = [String, Number, Boolean, Object, Array];

/** Validates a message payload against the handler's DTO class: the second end of "validated at both ends". */
@Injectable()
export class RpcValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const cls = metadata.metatype;
    if (!cls || PRIMITIVES.includes(cls)) return value;
    // Standalone: the gateway's own DTO of this class, validated already in this process.
    if (isParsedRequest(value, cls as new () => object)) return value;
    // Another class's DTO (passed as it is by the in-process transport): checked as the JSON it would be on the wire.
    if (isParsedRequest(value)) return parseRequest(cls as new () => object, JSON.parse(JSON.stringify(value)));
    return parseRequest(cls as new () => object, value);
  }
}
