-- Changing the e-mail address (issue 4): the new address waits beside the code e-mailed to it, in
-- email_codes with the purpose change_email, until that code confirms it. new_email is set for that
-- purpose only (lower case, like users.email).
ALTER TABLE email_codes DROP CONSTRAINT email_codes_purpose_check;
ALTER TABLE email_codes ADD CONSTRAINT email_codes_purpose_check
    CHECK (purpose IN ('verify_email', 'reverify', 'change_email'));
ALTER TABLE email_codes ADD COLUMN new_email TEXT NULL CHECK (new_email = lower(new_email));
ALTER TABLE email_codes ADD CONSTRAINT email_codes_new_email_purpose_check
    CHECK ((purpose = 'change_email') = (new_email IS NOT NULL));
