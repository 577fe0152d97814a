import { foldText, likePatterns } from './fold';

describe('search folding', () => {
  it('drops case and diacritics', () => {
    expect(foldText('  Vítejte v OBCHODĚ ')).toBe('vitejte v obchode');
    expect(foldText('Łódź Straße Øre')).toBe('lodz strasse ore');
  });
  it('turns words into escaped LIKE patterns', () => {
    expect(likePatterns('Obchodě  50%_off')).toEqual(['%obchode%', '%50\\%\\_off%']);
    expect(likePatterns('   ')).toEqual([]);
  });
});
