-- The accounting email becomes an accountant (issue 41, PRODUCT §13
-- "Teams"). A shop's accounting address other than its own, once
-- confirmed (it received the invoices), becomes a member of the shop with
-- the accountant's role: the login of that address if one exists (an
-- accountant of several shops, a farm's owner), else a new one, named
-- « Comptabilité », without password — they choose one with « Mot de
-- passe oublié », the address being confirmed already. The expired
-- invitation migration 61 made for it goes, and the shop's accounting
-- address is emptied: invoices, credit notes and reminders now go to the
-- shop's owners and accountants (core/notify's audience). An address not
-- confirmed keeps migration 61's invitation, which the owner sends again
-- from « Équipe ».

-- +goose Up
INSERT INTO people (id, email, email_key, email_confirmed, name, password_hash, created_at, updated_at)
    SELECT 'compta-' || MIN(u.id), MIN(TRIM(u.email_accounting)), LOWER(TRIM(u.email_accounting)), LOWER(TRIM(u.email_accounting)),
        'Comptabilité', '', MIN(u.updated_at), MIN(u.updated_at)
    FROM users u
    WHERE u.type = 'distributor' AND u.closed_at IS NULL AND TRIM(u.email_accounting) <> ''
        AND LOWER(TRIM(u.email_accounting)) <> u.email_key AND u.accounting_confirmed = LOWER(TRIM(u.email_accounting))
        AND NOT EXISTS (SELECT 1 FROM people p WHERE p.email_key = LOWER(TRIM(u.email_accounting)))
    GROUP BY LOWER(TRIM(u.email_accounting));

INSERT INTO members (person_id, org_id, role, created_at, updated_at)
    SELECT p.id, u.id, 'accountant', u.updated_at, u.updated_at
    FROM users u JOIN people p ON p.email_key = LOWER(TRIM(u.email_accounting)) AND p.closed_at IS NULL
    WHERE u.type = 'distributor' AND u.closed_at IS NULL AND TRIM(u.email_accounting) <> ''
        AND LOWER(TRIM(u.email_accounting)) <> u.email_key AND u.accounting_confirmed = LOWER(TRIM(u.email_accounting))
    ON CONFLICT (person_id, org_id) DO NOTHING;

-- The shops whose accounting address is now an owner or an accountant of
-- theirs: its invitation goes, and the address.
CREATE TABLE accountants_migrated AS
    SELECT u.id FROM users u
    WHERE u.type = 'distributor' AND u.closed_at IS NULL AND TRIM(u.email_accounting) <> ''
        AND LOWER(TRIM(u.email_accounting)) <> u.email_key AND u.accounting_confirmed = LOWER(TRIM(u.email_accounting))
        AND EXISTS (SELECT 1 FROM members m JOIN people p ON p.id = m.person_id
            WHERE m.org_id = u.id AND p.email_key = LOWER(TRIM(u.email_accounting)) AND m.role IN ('owner', 'accountant'));
DELETE FROM invitations WHERE id IN (SELECT 'migrated-' || id FROM accountants_migrated) AND used_at IS NULL;
UPDATE users SET email_accounting = '', accounting_confirmed = '' WHERE id IN (SELECT id FROM accountants_migrated);
DROP TABLE accountants_migrated;

-- +goose Down
-- The accountants stay members: their shops' owners remove them from
-- « Équipe ».
SELECT 1;
