// A person's own name (issue 41, PRODUCT §13 "Teams"): the rule of
// core/teams.SetName, with its French texts, checked before sending.
import type { Errors } from '../validation/common'

export const PERSON_NAME_TEXTS = {
  title: 'Votre nom',
  intro:
    'Le nom sous lequel l’équipe et vos partenaires vous voient (« Marie (Épicerie du Lac) a accepté… ») : le vôtre, distinct de celui de l’organisation.',
  label: 'Nom',
  submit: 'Enregistrer mon nom',
  done: 'Votre nom est enregistré.',
  required: 'Saisissez votre nom.',
  tooLong: 'Ce nom est trop long (100 caractères au plus).',
} as const

export type PersonNameField = 'name'
export interface PersonNameValues {
  name: string
}

/** The rule of a person's name: needed once trimmed, 100 characters at most. */
export function validatePersonName(values: PersonNameValues): Errors<PersonNameField> {
  const name = values.name.trim()
  if (name === '') return { name: PERSON_NAME_TEXTS.required }
  if ([...name].length > 100) return { name: PERSON_NAME_TEXTS.tooLong }
  return {}
}
