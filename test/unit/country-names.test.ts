import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { closestCountry, countryKey } from '../../src/catalogue/countries.ts'

// The catalogue's country suggestions (src/catalogue/countries.ts): a name no country has is answered with the
// nearest alias by edit distance on folded keys, ties going to the shorter key.

const alias = (name: string) => ({ alias_key: countryKey(name), name })

describe('closestCountry', () => {
  const aliases = ['Germany', 'Armenia', 'Guernsey', 'Niger', 'Nigeria', 'Oman'].map(alias)

  test('the nearest by edit distance: one letter missing, one swapped, one added', () => {
    assert.equal(closestCountry('Germny', aliases), 'Germany')
    assert.equal(closestCountry('nigar', aliases), 'Niger')
    assert.equal(closestCountry('Nigerria', aliases), 'Nigeria')
    // Folded first: case, accents and punctuation do not count.
    assert.equal(closestCountry('  OMÁN! ', aliases), 'Oman')
    // The first letter counts as much as any other.
    assert.equal(closestCountry('Malli', ['Bali', 'Mali'].map(alias)), 'Mali')
  })

  test('a tie goes to the shorter key, in whichever order the aliases come', () => {
    // "nigera" is one edit from "niger" (drop the a) and one from "nigeria" (add the i).
    assert.equal(closestCountry('nigera', aliases), 'Niger')
    assert.equal(closestCountry('nigera', [...aliases].reverse()), 'Niger')
  })

  test('no aliases, no suggestion', () => {
    assert.equal(closestCountry('Germany', []), undefined)
  })
})
