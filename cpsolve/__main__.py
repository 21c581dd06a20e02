"""``python -m cpsolve`` runs the command line."""

from cpsolve.cli import main

if __name__ == "__main__":
    main()
