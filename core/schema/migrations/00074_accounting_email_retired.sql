-- The shops' accounting email is retired (issue 41, PRODUCT §13 "Teams"):
-- the accountant is a member of the team. Migration 72 made the confirmed
-- addresses accountant members; an address left — not confirmed, or set
-- since migration 61 — becomes, as migration 61 did, an accountant's
-- invitation already expired, which the owner sends again from « Équipe »
-- (unless the address is a member of the shop, or invited, already). Then
-- every accounting email and its confirmation are emptied, and the links
-- confirming one go: nothing reads them any more. The columns stay, empty
-- (the frozen migrations and their tests name them).

-- +goose Up
INSERT INTO invitations (id, token_hash, org_id, email, email_key, role, invited_by, created_at, expires_at, used_at)
    SELECT 'accounting-' || u.id, 'accounting-' || u.id, u.id, TRIM(u.email_accounting), LOWER(TRIM(u.email_accounting)), 'accountant',
        (SELECT p.id FROM people p WHERE p.id = u.id), u.updated_at, 0, NULL
    FROM users u
    WHERE u.type = 'distributor' AND u.closed_at IS NULL AND TRIM(u.email_accounting) <> '' AND LOWER(TRIM(u.email_accounting)) <> u.email_key
        AND NOT EXISTS (SELECT 1 FROM invitations i WHERE i.org_id = u.id AND i.email_key = LOWER(TRIM(u.email_accounting)) AND i.used_at IS NULL)
        AND NOT EXISTS (SELECT 1 FROM members m JOIN people p ON p.id = m.person_id
            WHERE m.org_id = u.id AND p.email_key = LOWER(TRIM(u.email_accounting)));
DELETE FROM email_confirmations WHERE purpose = 'accounting';
UPDATE users SET email_accounting = '', accounting_confirmed = '' WHERE email_accounting <> '' OR accounting_confirmed <> '';

-- +goose Down
-- The addresses are in the invitations: the owners send them again.
SELECT 1;
