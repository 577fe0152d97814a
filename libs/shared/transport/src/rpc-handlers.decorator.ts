import { applyDecorators, Controller, UseFilters, UsePipes } from '@nestjs/common';
import { RpcErrorFilter } from './rpc-error.filter';
import { RpcValidationPipe } from './rpc-validation.pipe';

/** Marks a class of message handlers: payloads validated, errors kept typed. */
export function RpcHandlers(): ClassDecorator {
  return applyDecorators(Controller(), UseFilters(RpcErrorFilter), UsePipes(RpcValidationPipe));
}
