"""What comes into a campaign from other programs' files and goes out to them: Army Forge army lists, GURPS
Character Sheet characters, rosters as CSV. Each reader turns a file into the ordinary commands of a ruleset
(run by ``Ledger.execute`` like any typed command); each writer reads the campaign's views."""
