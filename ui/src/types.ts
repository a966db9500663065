// Entity types exchanged with the daemon (PRODUCT §3, PRODUCT §12), named
// after the schemas of its OpenAPI document: schema.gen.ts is generated from
// it (`make ui-types`; `make lint` fails while it is stale), so a field the
// API adds or changes reaches the components by itself. The descriptions are
// in the document (`primeur openapi`, or /docs of a running daemon).
// Written here by hand is only what the document does not say: the two
// kinds of account as a union on `type`, the user load's user as that union,
// the text fields of the profile form, and the choices of a request whose
// field the daemon reads as any text to refuse the others in French.
// Field names follow the JSON exactly, including `_id`. Dates: a need's
// `date` is the first day of its month ("2026-12-01"), a delivery `date` is
// "YYYY-MM-DD", timestamps (`updatedAt`, `createdAt`) are RFC 3339.

import type { components } from './schema.gen'

type Schemas = components['schemas']

/** A user as the daemon sends it; the fields of one kind of account are there for that kind only. */
type Profile = Schemas['AccountsProfile']

/** The two account kinds (PRODUCT §1). */
export type UserType = Profile['type']

export type IdentifierIssue = Schemas['AccountsIdentifierIssue']
export type NotificationPref = Schemas['NotifyPref']
export type NotificationMode = NotificationPref['mode']
export type PaymentTerms = Schemas['TermsTerms']
export type VatRegime = NonNullable<Profile['vatRegime']>

/** A producer account: the daemon always sends a producer its producer fields. */
export type Producer = Profile & { type: 'producer' } & Required<
    Pick<Profile, 'defaultDeliveryDays' | 'paymentTerms' | 'vatRegime' | 'cutoffReminder'>
  >

/** A distributor (shop) account: the daemon always sends a shop its shop fields. */
export type Distributor = Profile & { type: 'distributor' } & Required<
    Pick<Profile, 'billingAddressLine1' | 'billingAddressLine2' | 'billingAddressLine3'>
  >

/** The logged-in user. */
export type User = Producer | Distributor

/** Body of `PUT /api/user`: only editable fields, all optional. */
export type ProfileUpdate = Schemas['ProfileRequestBody']

/** The text fields of `User` the profile form may send in `PUT /api/user`. */
export type ProfileField = Exclude<
  { [K in keyof ProfileUpdate]-?: NonNullable<ProfileUpdate[K]> extends string ? K : never }[keyof ProfileUpdate],
  // emailAccounting: retired with the teams (issue 41), refused by the daemon when set.
  'currentPassword' | 'vatRegime' | 'emailAccounting'
>

/**
 * Which address a confirmation link is for: the login email (`POST /api/email/resend`'s `which`, which the daemon
 * reads as any text and refuses in French when it is not; the shops' accounting email is retired, issue 41).
 */
export type ConfirmWhich = 'account'

export type Product = Schemas['CatalogProduct']
/** A family of product types (fruits, légumes, fromages…). */
export type Family = Schemas['CatalogFamily']
/** Unit of need of a product type: kg, l, un (pièce), douzaine, botte… (units.ts). */
export type Unit = Product['unit']

export type Proposal = Schemas['PlanningProposal']
export type ProposalStatus = Proposal['status']
export type Need = Schemas['PlanningView']

export type DeliveryLine = Schemas['OrdersLineView']
export type ClaimType = NonNullable<DeliveryLine['claimType']>
export type Delivery = Schemas['OrdersDeliveryView']
export type DeliveryStatus = Delivery['status']
export type ClaimStatus = Delivery['claimStatus']
/** The invoice of an order, once issued (PRODUCT §2: its link shows when it exists). */
export type InvoiceRef = Schemas['OrdersInvoiceRef']
/** A credit note or complementary invoice settling a delivery's claim, or the credit note of an escompte. */
export type CreditRef = Schemas['OrdersCreditRef']
/** One order = (producer, distributor, month) (PRODUCT §15). */
export type Order = Schemas['OrdersView']

export type ActivityEvent = Schemas['ActivityView']
/** Activity event types (PRODUCT §4). */
export type EventType = ActivityEvent['type']
/** Payload of an activity event (PRODUCT §3); every field is optional. */
export type EventData = Schemas['ActivityData']

/**
 * Answer of the trade calls (`PUT`/`DELETE /api/proposals/…`, `PUT /api/proposalreview/…`): the need, and beside
 * it what else the call changed, each shaped as in the user load.
 */
export type TradeAnswer = Schemas['TradeAnswer']

/** A shop the user load names. Coordinates are strings, "" when unknown. */
export type DistributorEntry = Schemas['MapShop']
/** A producer entry of the user load. */
export type ProducerEntry = Schemas['MapProducer']

/** Response of `GET /api/user`: what every screen needs (issue 42). */
export type UserLoad = Omit<Schemas['UserLoad'], 'user'> & { user: User }
/** The user load's counters. */
export type LoadCounts = Schemas['LoadCounts']
/** Response of `GET /api/catalogue`: every product type and family. */
export type Catalogue = Schemas['Catalogue']
/** Response of `GET /api/stats/purchases`: the dashboard chart's series. */
export type Purchases = Schemas['StatsPurchases']

/** Body of `POST /auth/register`. */
export type RegistrationRequest = Schemas['RegisterRequestBody']

/** A shop's standing in the ambassador programme (`GET /api/rewards`). */
export type RewardsStanding = Schemas['RewardsStanding']

/** A shop on the map (`GET /api/map`): its position in degrees and its score. */
export type MapShop = Schemas['MapShopView']
/** The shops of one cell of the map's grid (`GET /api/map` past 300 shops). */
export type MapCluster = Schemas['MapClusterView']

/** One figure of a price comparison (`GET /api/needs/{id}/prices`). */
export type PriceFigure = Schemas['TradeFigure']
/** The price comparison of a need; a figure is null when it is withheld. */
export type PriceComparison = Schemas['TradeComparison']
