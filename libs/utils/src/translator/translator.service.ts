import { Inject, Injectable } from '@nestjs/common';
import { AUTO_LANGUAGE, DomainError, TranslateRequest, TranslatorResult } from '@lookup/contracts';
import { TRANSLATION_PROVIDER, TranslationProvider } from './translation.provider';
import { findLanguage } from './translator.languages';

/** Checks both codes against the configured provider's own list, then asks it. */
@Injectable()
export class TranslatorService {
  constructor(@Inject(TRANSLATION_PROVIDER) private readonly provider: TranslationProvider) {}

  async translate(dto: TranslateRequest): Promise<TranslatorResult> {
    const langs = await this.provider.languages();
    const auto = dto.sl.toLowerCase() === AUTO_LANGUAGE;
    const source = auto ? undefined : findLanguage(langs.source, dto.sl);
    if (!auto && !source) throw DomainError.invalidParameter('sl', `${JSON.stringify(dto.sl)} is not a source language of the ${this.provider.name} translator.`);
    const target = findLanguage(langs.target, dto.tl);
    if (!target) throw DomainError.invalidParameter('tl', `${JSON.stringify(dto.tl)} is not a target language of the ${this.provider.name} translator.`);
    // Nothing to translate: whitespace stays as it is, and costs no provider call.
    if (!dto.q.trim()) return { translation: dto.q };
    return { translation: await this.provider.translate(dto.q, source, target) };
  }
}
