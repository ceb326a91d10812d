"""The browser front end: pages and the table script served by the game server."""
