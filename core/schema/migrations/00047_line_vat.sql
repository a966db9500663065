-- VAT per line (issue 39: a catalogue of every product type, each with its
-- VAT rate; issue 40's delivery fees, lines with a rate of their own): a
-- document's lines carry their own VAT rate, and the document its VAT
-- breakdown per rate as issued (EN 16931 BG-23: rate, basis, VAT, rounded
-- once per rate), a JSON array [{"rate", "basis", "vat"}] in hundredths
-- of a percent and cents. Every document issued so far had one rate, its
-- vat_rate (0 when exempt): its lines take it, and its breakdown is that
-- one rate with its totals.

-- +goose Up
ALTER TABLE document_lines ADD COLUMN vat_rate BIGINT NOT NULL DEFAULT 0 CHECK (vat_rate >= 0);
UPDATE document_lines SET vat_rate = (SELECT d.vat_rate FROM documents d WHERE d.id = document_lines.document_id);
ALTER TABLE documents ADD COLUMN vat_breakdown TEXT NOT NULL DEFAULT '';
UPDATE documents SET vat_breakdown = '[{"rate":' || vat_rate || ',"basis":' || total_ht || ',"vat":' || total_vat || '}]';

-- +goose Down
ALTER TABLE documents DROP COLUMN vat_breakdown;
ALTER TABLE document_lines DROP COLUMN vat_rate;
