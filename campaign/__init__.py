"""What users do with the log: commands, rules, the campaign calendar and the CLI."""
