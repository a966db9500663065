// Sample entities for tests.
import type { Distributor, Producer } from '../types'

const blank = {
  updatedAt: '2026-11-20T10:00:00Z',
  capital: '',
  bic: '',
  ape: '',
  iban: '',
  siret: '',
  tel: '',
  tvaintracom: '',
  addressLine1: '',
  addressLine2: '',
  addressLine3: '',
  latitude: '',
  longitude: '',
  certification: '',
  legal: '',
  emailConfirmed: true,
  notifications: [],
  identifierIssues: [],
}

export const producer: Producer = {
  ...blank,
  _id: 'p1',
  type: 'producer',
  email: 'ferme@exemple.fr',
  name: 'Ferme des Saules',
  defaultDeliveryDays: [true, false, false, true, false, false, false],
  paymentTerms: { basis: 'decade', days: 30, discount: 0, discountDays: 0 },
  vatRegime: 'flat',
  cutoffReminder: true,
}

export const distributor: Distributor = {
  ...blank,
  _id: 'd1',
  type: 'distributor',
  email: 'epicerie@exemple.fr',
  name: 'Épicerie du coin',
  billingAddressLine1: '',
  billingAddressLine2: '',
  billingAddressLine3: '',
}
