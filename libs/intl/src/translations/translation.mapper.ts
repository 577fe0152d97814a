import { createHash } from 'node:crypto';
import { Translation } from '@lookup/contracts';
import { TranslationEntity } from '../store/intl.entities';

export function toTranslation(e: TranslationEntity, voted: boolean): Translation {
  return {
    id: e.id,
    phrase_id: e.phraseId,
    object: 'translation',
    phrase_hash: e.phraseHash,
    hash: e.hash,
    translation: e.translation,
    approval_status: e.approvalStatus,
    variations: JSON.parse(e.variations) as number[],
    tokens: JSON.parse(e.tokens) as string[],
    types: JSON.parse(e.types) as number[],
    locale: e.locale,
    created_at: e.createdAt,
    author: e.author,
    voted,
    votes: e.votes,
  };
}

/**
 * A translation's `hash`: md5 (base64, like fbt's text hashes) of what makes it distinct for
 * its phrase. Submitting the same text for the same phrase, locale and variations again
 * returns the stored translation instead of a duplicate.
 */
export function translationHash(locale: string, translation: string, tokens: string[], variations: number[]): string {
  const variationKey = tokens.map((t, i) => `${t}=${variations[i]}`).join(',');
  return createHash('md5').update(`${locale}\n${variationKey}\n${translation}`).digest('base64');
}
