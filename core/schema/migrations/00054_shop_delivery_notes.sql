-- A shop's delivery instructions and opening hours (issue 40, "The farmer's
-- day"): free text of its profile — where to unload, whom to ask, the door
-- code; when it can be delivered — shown on the producers' packing sheets and
-- round (screen, PDF, CLI). Empty for producers and for shops that gave none.

-- +goose Up
ALTER TABLE users ADD COLUMN delivery_instructions TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN opening_hours TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE users DROP COLUMN opening_hours;
ALTER TABLE users DROP COLUMN delivery_instructions;
