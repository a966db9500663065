// First steps of a new account (PRODUCT §2 "Dashboard", "First steps"): the
// rules of a complete account, in one place. They reuse the profile rules
// (validation/profile.ts, the daemon's), the address rules
// (validation/address.ts) and the map's rule for a shop it can draw
// (map/geo.ts); the dashboard's checklist, the profile form's notice and the
// proposal form's notice read them here. Pure.
import { shopLonLat } from '../map/coordinates'
import type { UserType } from '../types'
import { isAddressComplete, isPostcodeValid, splitAddress } from '../validation/address'
import { type ProfileFormField, validateDeliveryDays, validateProfileField } from '../validation/profile'

/** The user fields the rules read. */
export interface SetupUser {
  type: UserType
  addressLine1?: string
  addressLine2?: string
  addressLine3?: string
  latitude?: string
  longitude?: string
  legal?: string
  siret?: string
  defaultDeliveryDays?: readonly boolean[]
}

export type StepId = 'deliveryDays' | 'address' | 'position' | 'legal' | 'needs'

/** Where a step is done: a field of the profile form, or a page. */
export type StepTarget = { kind: 'profile'; field: ProfileFormField } | { kind: 'page'; path: string; label: string }

export interface SetupStep {
  id: StepId
  label: string
  hint: string
  done: boolean
  /** The first field still missing (or the page) the step's link opens. */
  target: StepTarget
}

/** Told to a shop the map cannot draw, on the dashboard and in the profile. */
export const SHOP_INVISIBLE =
  'Sans position, votre magasin est invisible pour les producteurs : ils choisissent les magasins sur la carte.'

/** Told in the proposal form to a producer without delivery days, before it types. */
export const NO_DELIVERY_DAYS_NOTICE =
  'Pour proposer, choisissez d’abord vos jours de livraison : vos livraisons sont planifiées sur ces jours.'

export const STEP_TEXTS = {
  deliveryDays: {
    label: 'Choisir vos jours de livraison',
    hint: 'Vos livraisons sont planifiées sur ces jours ; sans eux, vous ne pouvez pas faire de proposition.',
  },
  addressProducer: {
    label: "Renseigner l'adresse de votre ferme",
    hint: 'Adresse, code postal et ville : ils figurent sur vos factures et vos bons de livraison.',
  },
  addressShop: {
    label: "Renseigner l'adresse du magasin",
    hint: 'Adresse, code postal et ville : ils figurent sur les factures et les bons de livraison.',
  },
  position: { label: 'Placer le magasin sur la carte', hint: SHOP_INVISIBLE },
  legal: {
    label: 'Renseigner vos informations légales',
    hint: 'Forme juridique et SIRET, imprimés sur les factures.',
  },
  needs: {
    label: 'Saisir vos premiers besoins',
    hint: 'Les producteurs proposent leurs produits sur vos besoins mensuels.',
  },
} as const

/** The address of a user as the profile form splits it. */
function addressOf(user: SetupUser) {
  return splitAddress([user.addressLine1 ?? '', user.addressLine2 ?? '', user.addressLine3 ?? ''])
}

/** Whether the map draws this shop (PRODUCT §2 "Map": usable latitude and longitude). */
export function isOnMap(user: Pick<SetupUser, 'latitude' | 'longitude'>): boolean {
  return shopLonLat(user) !== null
}

/** Whether a producer has delivery days (it may propose, PRODUCT §8 "Business refusals"). */
export function hasDeliveryDays(user: Pick<SetupUser, 'defaultDeliveryDays'>): boolean {
  return validateDeliveryDays(user.defaultDeliveryDays) === undefined
}

/** Legal details for the documents: a legal form and a valid SIRET. */
export function hasLegalDetails(user: Pick<SetupUser, 'legal' | 'siret'>): boolean {
  const siret = user.siret ?? ''
  return (user.legal ?? '').trim() !== '' && siret.trim() !== '' && validateProfileField('siret', siret) === undefined
}

function addressStep(user: SetupUser): SetupStep {
  const address = addressOf(user)
  const field: ProfileFormField =
    address.street === '' ? 'addressLine1' : !isPostcodeValid(address.postcode) ? 'postcode' : 'town'
  const texts = user.type === 'producer' ? STEP_TEXTS.addressProducer : STEP_TEXTS.addressShop
  return { id: 'address', ...texts, done: isAddressComplete(address), target: { kind: 'profile', field } }
}

/**
 * The steps of a new account, in the order to take them (PRODUCT §2
 * "Dashboard"): a producer's delivery days, address and legal details; a
 * shop's address, position on the map, legal details and first needs.
 * `needCount` is how many needs the shop has.
 */
export function setupSteps(user: SetupUser, needCount = 0): SetupStep[] {
  const legal: SetupStep = {
    id: 'legal',
    ...STEP_TEXTS.legal,
    done: hasLegalDetails(user),
    target: { kind: 'profile', field: (user.legal ?? '').trim() === '' ? 'legal' : 'siret' },
  }
  if (user.type === 'producer') {
    return [
      {
        id: 'deliveryDays',
        ...STEP_TEXTS.deliveryDays,
        done: hasDeliveryDays(user),
        target: { kind: 'profile', field: 'defaultDeliveryDays' },
      },
      addressStep(user),
      legal,
    ]
  }
  return [
    addressStep(user),
    {
      id: 'position',
      ...STEP_TEXTS.position,
      done: isOnMap(user),
      target: { kind: 'profile', field: isPostcodeValid(addressOf(user).postcode) ? 'latitude' : 'postcode' },
    },
    legal,
    {
      id: 'needs',
      ...STEP_TEXTS.needs,
      done: needCount > 0,
      target: { kind: 'page', path: '/dis/needs', label: 'Planifier mes besoins' },
    },
  ]
}

/** Whether every step is done: the checklist goes away. */
export function isSetupComplete(steps: readonly SetupStep[]): boolean {
  return steps.every((s) => s.done)
}

/** The search parameter of the dashboard that opens the profile form on a field: `/?profil=siret`. */
export const PROFILE_PARAM = 'profil'

/** The dashboard's address opening the profile form on `field`. */
export function profileLink(field: ProfileFormField): string {
  return `/?${PROFILE_PARAM}=${encodeURIComponent(field)}`
}

const FOCUSABLE: readonly ProfileFormField[] = [
  'defaultDeliveryDays',
  'name',
  'tel',
  'addressLine1',
  'addressLine2',
  'postcode',
  'town',
  'latitude',
  'longitude',
  'billingAddressLine1',
  'billingAddressLine2',
  'billingAddressLine3',
  'legal',
  'capital',
  'siret',
  'ape',
  'tvaintracom',
  'certification',
  'iban',
  'bic',
]

/** The field a `?profil=` value names, or null when it names none. */
export function parseProfileParam(value: string | null | undefined): ProfileFormField | null {
  return FOCUSABLE.find((f) => f === value) ?? null
}

/** The id of a profile form field's input (the checklist's links focus it). */
export function profileFieldId(field: ProfileFormField): string {
  return `profile-${field}`
}
