"""``python -m cpsolve`` runs the command line."""

if __name__ == "__main__":
    try:
        from cpsolve.cli import main
    except KeyboardInterrupt:  # Ctrl-C in the moment before main() holds it
        import sys

        sys.stderr.write("cpsolve: interrupted\n")
        raise SystemExit(130) from None
    main()
