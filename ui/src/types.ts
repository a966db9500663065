// Entity types exchanged with the daemon (PRODUCT §3, PRODUCT §12).
// Field names follow the JSON exactly, including `_id`. Dates:
// a need's `date` is the first day of its month ("2026-12-01"), a delivery
// `date` is "YYYY-MM-DD", timestamps (`updatedAt`, `createdAt`) are RFC 3339.

/** The two account kinds (PRODUCT §1). */
export type UserType = 'producer' | 'distributor'

/** Fields shared by both account kinds. Strings are "" when unset. */
export interface UserBase {
  _id: string
  type: UserType
  email: string
  name: string
  updatedAt: string
  capital: string
  bic: string
  ape: string
  iban: string
  siret: string
  tel: string
  tvaintracom: string
  addressLine1: string
  addressLine2: string
  addressLine3: string
  latitude: string
  longitude: string
  certification: string
  legal: string
  /** Whether the login email is confirmed (its link opened); documents and notifications wait for it. */
  emailConfirmed: boolean
  /** A new login email asked for, waiting for its confirmation link; absent when none. */
  emailPending?: string
  /** The email notification preferences, in the server's order with its French labels. */
  notifications: NotificationPref[]
  /** What is wrong with the SIRET or VAT number stored (PRODUCT §5 "Identifiers"); empty when nothing is. */
  identifierIssues: IdentifierIssue[]
}

/** A stored identifier to correct: the profile field and the daemon's French sentence. */
export interface IdentifierIssue {
  field: 'siret' | 'tvaintracom'
  message: string
}

/** How often a kind of notification is emailed: at most hourly, in the 7h digest, or never. */
export type NotificationMode = 'immediate' | 'daily' | 'none'

/** One email notification preference (`user.notifications`). */
export interface NotificationPref {
  /** The server's name of the kind, sent back in `PUT /api/user/notifications`. */
  kind: string
  /** Its French label, shown as given. */
  label: string
  mode: NotificationMode
}

/** Which address a confirmation link is for: the login email or the shop's accounting email. */
export type ConfirmWhich = 'account' | 'accounting'

/** A producer's payment terms (PRODUCT §16 "Payment terms"). */
export interface PaymentTerms {
  /** Days counted after the end of the décade of the first delivery billed, or after the end of its month. */
  basis: 'decade' | 'month'
  days: number
  /** Early-payment discount in hundredths of a percent (200 = 2 %); 0: none. */
  discount: number
  /** The discount's window, in days after the issue. */
  discountDays: number
}

/**
 * A producer's VAT regime (PRODUCT §16 "VAT regimes"): VAT charged (normal), the franchise en base of art. 293 B
 * CGI, or a farmer not liable to VAT under the agricultural flat-rate refund (flat).
 */
export type VatRegime = 'normal' | 'franchise' | 'flat'

/** A producer account. */
export interface Producer extends UserBase {
  type: 'producer'
  /** 7 booleans, index 0 = Monday … 6 = Sunday (PRODUCT §9). */
  defaultDeliveryDays: boolean[]
  paymentTerms?: PaymentTerms
  vatRegime?: VatRegime
  /** Whether the reminder of the 25th (shops' needs still open for next month) is emailed. */
  cutoffReminder?: boolean
}

/** A distributor (shop) account. */
export interface Distributor extends UserBase {
  type: 'distributor'
  emailAccounting: string
  /** Whether `emailAccounting` is confirmed (true when empty or equal to the login email). */
  emailAccountingConfirmed?: boolean
  billingAddressLine1: string
  billingAddressLine2: string
  billingAddressLine3: string
}

/** The logged-in user. */
export type User = Producer | Distributor

/** Fields of `User` the profile form may send in `PUT /api/user`. */
export type ProfileField =
  | 'name'
  | 'capital'
  | 'bic'
  | 'ape'
  | 'iban'
  | 'siret'
  | 'tel'
  | 'tvaintracom'
  | 'addressLine1'
  | 'addressLine2'
  | 'addressLine3'
  | 'latitude'
  | 'longitude'
  | 'certification'
  | 'legal'
  | 'emailAccounting'
  | 'billingAddressLine1'
  | 'billingAddressLine2'
  | 'billingAddressLine3'

/** Body of `PUT /api/user`: only editable fields, all optional. */
export type ProfileUpdate = Partial<Record<ProfileField, string>> & {
  defaultDeliveryDays?: boolean[]
  paymentTerms?: PaymentTerms
  vatRegime?: VatRegime
  cutoffReminder?: boolean
  /** The current password, needed when `iban` or `bic` change (PRODUCT §13 "Changing the bank details"). */
  currentPassword?: string
}

/** Unit of a product: kilograms or pieces ("un"). */
export type Unit = 'kg' | 'un'

export interface Product {
  _id: string
  name: string
  unit: Unit
  /** Reference producer price HT in EUR per unit, from the catalogue. */
  refPrice?: number
}

export type ProposalStatus = 'proposed' | 'accepted' | 'rejected'

export interface Proposal {
  _id: string
  /** Producer id. */
  producer: string
  status: ProposalStatus
  /** Which side made it; absent means producer. */
  from?: UserType
  quantity: number
  price: number
}

export interface Need {
  _id: string
  /** Product id. */
  product: string
  /** Distributor id. */
  distributor: string
  /** First day of the month, "2026-12-01". */
  date: string
  quantity: number
  quantityAccepted: number
  quantityProposed: number
  quantityAvailable: number
  updatedAt: string
  proposals: Proposal[]
}

/** Average observed purchase price of a product (PRODUCT §3 "Price record"). */
export interface PriceRecord {
  /** Product id. */
  product: string
  value: number
}

export type DeliveryStatus = 'planned' | 'done' | 'cancelled'
export type ClaimStatus = 'void' | 'sent' | 'accepted' | 'rejected'
export type ClaimType = 'quality' | 'quantity'

export interface DeliveryLine {
  _id: string
  /** Product id. */
  product: string
  price: number
  quantityExpected: number
  quantitySent: number
  /** Signed adjustment asked by the producer. */
  quantityClaimed: number
  claimType?: ClaimType
  claimComment?: string
}

export interface Delivery {
  _id: string
  orderId: string
  status: DeliveryStatus
  /** "YYYY-MM-DD". */
  date: string
  chrono: number
  claimStatus: ClaimStatus
  claimSentAt?: string
  claimReviewedAt?: string
  deliveryLines: DeliveryLine[]
}

/** The invoice of an order, once issued (PRODUCT §2: its link shows when it exists). */
export interface InvoiceRef {
  _id: string
  /** "FA-2026-000001": the producer's yearly sequence. */
  number: string
  /** RFC 3339. */
  issuedAt: string
  /** The credit notes and complementary invoices settling accepted claims (PRODUCT §16). */
  credits?: CreditRef[]
}

/**
 * A credit note ("AV-2026-000001") or complementary invoice settling the claim on one delivery, or the credit note
 * of an escompte (kind `discount`, no delivery).
 */
export interface CreditRef {
  _id: string
  number: string
  kind: 'credit' | 'complement' | 'discount'
  /** Empty for an escompte's credit note. */
  deliveryId: string
  /** RFC 3339. */
  issuedAt: string
}

/** One order = (producer, distributor, month) (PRODUCT §15). */
export interface Order {
  _id: string
  /** The month, "2026-12-01". */
  date: string
  /** Distributor id (present in a producer's orders). */
  distributor?: string
  /** Producer id (present in a distributor's orders). */
  producer?: string
  deliveries: Delivery[]
  invoice?: InvoiceRef | null
}

/** Activity event types (PRODUCT §4). */
export type EventType =
  | 'need:update'
  | 'need:delete'
  | 'need:create'
  | 'need:create:bulk'
  | 'need:import'
  | 'proposal:request'
  | 'proposal:review'
  | 'fix:request'
  | 'fix:review'
  | 'claim:request'
  | 'claim:review'
  | 'claim:autovalidate'
  | 'payment:record'
  | 'payment:declare'
  | 'payment:confirm'
  | 'payment:undo'

/** Payload of an activity event (PRODUCT §3); every field is optional. */
export interface EventData {
  product?: { name: string; unit: Unit }
  date?: string
  dates?: string[]
  quantity?: number
  /** Unit price HT in EUR (proposals and their reviews). */
  price?: number
  delta?: number
  /** true means increase. */
  vector?: boolean
  /** true means accepted. */
  outcome?: boolean
  /** Number of needs written by a bulk add or an import. */
  count?: number
  /** Amount TTC in EUR (payments). */
  amount?: number
}

export interface ActivityEvent {
  /** Event id: the cursor of `GET /api/events?before=`. */
  _id?: string
  createdAt: string
  type: EventType
  data: EventData
  /** The emitter; its email only in the emitter's own feed (a login is contact data). */
  origin: { email?: string; name: string }
  target?: { name: string } | null
}

/**
 * Answer of the trade calls (`PUT`/`DELETE /api/proposals/…`, `PUT
 * /api/proposalreview/…`): the need (PRODUCT §7), its fields as ever, and beside
 * them what else the call changed, each shaped as in the user load.
 */
export interface TradeAnswer extends Need {
  /** After an acceptance: the order of the producer, the shop and the need's month, with its deliveries. */
  order?: Order
  /** After an acceptance that left the order empty: the id of the order the daemon deleted. */
  removedOrder?: string
  /** After an acceptance: the product's price. */
  price?: PriceRecord
  /** After an acceptance that left the product without a commitment: the product whose price is gone. */
  removedPrice?: string
  /** The events the call recorded, newest first (none for a withdrawal). */
  events: ActivityEvent[]
}

/**
 * A shop the user load names (the user's own shops: a shop itself, a
 * producer's partners). Coordinates are strings, "" when unknown.
 */
export interface DistributorEntry {
  _id: string
  name: string
  email: string
  latitude: string
  longitude: string
}

/** A producer entry of the user load. */
export interface ProducerEntry {
  _id: string
  name: string
}

/** Response of `GET /api/user`. */
export interface UserLoad {
  user: User
  needs: Need[]
  products: Product[]
  distributors: DistributorEntry[]
  producers: ProducerEntry[]
  events: ActivityEvent[]
  orders: Order[]
  prices: PriceRecord[]
}

/** Body of `POST /auth/register`. */
export interface RegistrationRequest {
  email: string
  email2?: string
  password: string
  password2?: string
  name: string
  distributor: boolean
}

/** A shop's standing in the ambassador programme (`GET /api/rewards`, core/rewards). */
export interface RewardsStanding {
  level: 'sympathisant' | 'militant' | 'ambassadeur' | 'super-ambassadeur'
  purchases: {
    lastMonth: { month: string; value: number }
    currentMonth: { month: string; value: number }
    /** The larger of the two: what level, rank and score use. */
    monthly: number
  }
  monthsOfCommitment: number
  /** 1 = largest monthly purchases. */
  rank: number
  shops: number
  score: number
  contribution: { amount: number; since: string; updatedAt: string } | null
}

/** A shop on the map (`GET /api/map`): its position in degrees and its score. */
export interface MapShop {
  _id: string
  name: string
  /** Its login email, for itself and the producers trading with it; "" otherwise. */
  email: string
  latitude: number
  longitude: number
  /** Its score in the ambassador programme (the pin's tooltip). */
  score: number
}

/** The shops of one cell of the map's grid (`GET /api/map` past 300 shops). */
export interface MapCluster {
  count: number
  /** The mean position of its shops, where it is drawn. */
  latitude: number
  longitude: number
  /** The box that holds its shops, which a click zooms to. */
  south: number
  west: number
  north: number
  east: number
}

/** One figure of a price comparison (`GET /api/needs/{id}/prices`). */
export interface PriceFigure {
  /** "FR" for the whole platform, else the département ("74", "2A", "971"). */
  area: string
  /** Quantity-weighted average unit price HT, EUR. */
  average: number
  /** How many commitments are behind it. */
  purchases: number
}

/**
 * The price comparison of a need: the average price paid on the platform for
 * its product and month, nationally and in the shop's département. A figure
 * is null when fewer than 3 distinct shops and 3 distinct producers back it.
 */
export interface PriceComparison {
  product: string
  month: string
  /** The shop's département; "" when its address has no French postcode. */
  area: string
  national: PriceFigure | null
  local: PriceFigure | null
}
