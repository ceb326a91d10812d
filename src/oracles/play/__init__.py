"""Playing in the terminal: ``oracles play``. Built on the rules core, the
bots and rich; nothing here is imported by the rules."""
