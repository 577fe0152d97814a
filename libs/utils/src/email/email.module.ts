import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@lookup/shared/config';
import { EmailCheckService } from './email-check.service';
import { EmailLists } from './email-lists';
import { EmailHandlers } from './email.handlers';
import { EMAIL_LISTS, EMAIL_OPTIONS, EmailOptions, emailOptionsFrom, MAIL_DNS, MAILBOX_PROBER } from './email.options';
import { NodeMailDns } from './node-mail-dns.adapter';
import { SmtpProber } from './smtp-probe';

/**
 * The e-mail check. Reads APP_CONFIG from the global ConfigModule that the utils module
 * (or any host module) registers.
 */
@Module({
  controllers: [EmailHandlers],
  providers: [
    { provide: EMAIL_OPTIONS, inject: [APP_CONFIG], useFactory: (config: AppConfig) => emailOptionsFrom(config) },
    { provide: MAIL_DNS, inject: [EMAIL_OPTIONS], useFactory: (o: EmailOptions) => new NodeMailDns({ servers: o.dnsServers, timeoutMs: o.dnsTimeoutMs }) },
    { provide: MAILBOX_PROBER, inject: [EMAIL_OPTIONS], useFactory: (o: EmailOptions) => new SmtpProber(o.smtp) },
    { provide: EMAIL_LISTS, useFactory: () => new EmailLists() },
    EmailCheckService,
  ],
  exports: [EmailCheckService],
})
export class EmailModule {}
