// The roles of a team (issue 41, PRODUCT §13 "Teams") as the UI applies
// them: one table, daemon/testdata/roles.json, which the daemon's test
// keeps equal to the roles each operation states in the OpenAPI document
// (`x-roles`, daemon/roles.go). A screen or a button asks `may(role,
// operation)` with the operation id it calls, so the UI shows only what
// the role may do and never decides otherwise than the daemon.
import table from '../../../daemon/testdata/roles.json'
import type { components } from '../schema.gen'

type Schemas = components['schemas']

/** A member's role, as the daemon names it. */
export type Role = NonNullable<Schemas['AccountsProfile']['role']>

/** The operation ids the table knows (those needing a session). */
export type OperationId = keyof typeof table.operations

/** The French names of the roles (PRODUCT §13 "Teams"), as the daemon's emails say them. */
export const ROLE_LABELS: Record<Role, string> = {
  owner: 'Propriétaire',
  buyer: 'Acheteur',
  receiver: 'Réception',
  sales: 'Vente',
  delivery: 'Livraison',
  accountant: 'Comptabilité',
}

/** What each role does, for the invitation form. */
export const ROLE_HINTS: Record<Role, string> = {
  owner: 'tout, y compris l’équipe',
  buyer: 'besoins, imports, propositions et engagements',
  receiver: 'livraisons, réceptions et réclamations',
  sales: 'propositions, engagements, catalogue et conditions de livraison',
  delivery: 'tournées, fiches du jour et réclamations sur les livraisons',
  accountant: 'factures, paiements, virements et exports ; lecture seule ailleurs',
}

/** The roles of a shop (distributor) or of a farm (producer), the owner first. */
export function rolesOf(type: 'producer' | 'distributor'): Role[] {
  return (type === 'producer' ? table.farm : table.shop) as Role[]
}

/**
 * Whether a member of `role` may call `operation`. Without a role (an
 * answer outside a session, a daemon of before teams) the account is its
 * own owner.
 */
export function may(role: Role | undefined, operation: OperationId): boolean {
  const roles: readonly string[] = table.operations[operation]
  return roles.includes(role ?? 'owner')
}
