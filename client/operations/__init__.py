"""The v1 operations by area, one module each; ``client.api.ApiClient`` combines them over the transport."""
