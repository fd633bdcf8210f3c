"""What a new user found creating games: ``POST /games`` takes the variant's policies as the
command line's ``--policy NAME=VALUE`` does, with errors naming the policy and its values; the
page's catalogue lists each variant's policies; the wording of a missing variant, of a variant
without policies and of a setup with a player per power. On the database of ``--database``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402
from test_server import FakeClock, create, make_client, sign_up  # noqa: E402

from realpolitik.errors import VariantError  # noqa: E402
from realpolitik.game import Game  # noqa: E402
from realpolitik.variant import VARIANTS_PATH_VARIABLE, load_variant  # noqa: E402

CW = "colonial_winters"


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    with make_client(database_url, FakeClock()) as c:
        yield c


def test_a_new_game_takes_the_variants_policies(client: TestClient) -> None:
    gm = sign_up(client, "alice")
    game = create(client, gm, variant=CW, policies={"second_place": "count",
                                                    "half_rule_rounding": "floor"})
    view = client.get(f"/games/{game}", headers=gm).json()
    assert view["policies"]["second_place"] == "count"
    assert view["policies"]["half_rule_rounding"] == "floor"
    assert view["policies"]["corner_blocking"] == "order"  # the variant's own reading
    # those the game chose otherwise, with the variant's own reading (the page marks them)
    assert view["policies_changed"] == {"second_place": "rank", "half_rule_rounding": "ceil"}
    # the choice is part of the game: its record keeps it, as the command line's does
    plain = create(client, gm, variant=CW)
    plain_view = client.get(f"/games/{plain}", headers=gm).json()
    assert plain_view["policies"]["second_place"] == "rank"
    assert plain_view["policies_changed"] == {}
    # choosing the variant's own reading changes nothing
    same = create(client, gm, variant=CW, policies={"second_place": "rank"})
    assert client.get(f"/games/{same}", headers=gm).json()["policies_changed"] == {}


@pytest.mark.parametrize(("policies", "message", "policy", "allowed"), [
    ({"second_place": "votes"}, "the policy 'second_place' of Colonial Winters (reconstructed "
     "map) cannot be 'votes': it is one of rank, count", "second_place", ["rank", "count"]),
    ({"second": "count"}, "Colonial Winters (reconstructed map) has no policy called "
     "'second': its policies are sea_superiority_evaluation, second_place", "second", None),
])
def test_a_wrong_policy_is_refused_naming_it_and_what_it_may_be(
        client: TestClient, policies: dict[str, str], message: str, policy: str,
        allowed: list[str] | None) -> None:
    gm = sign_up(client, "alice")
    r = client.post("/games", json={"name": "x", "variant": CW, "policies": policies},
                    headers=gm)
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert detail["code"] == "bad_policy" and detail["field"] == "policies"
    assert detail["message"].startswith(message)
    assert detail["policy"] == policy
    if allowed is not None:
        assert detail["allowed"] == allowed
    assert client.get("/games?scope=mine", headers=gm).json() == []  # nothing was created


def test_the_classical_game_has_no_policies_and_says_so(client: TestClient) -> None:
    gm = sign_up(client, "alice")
    r = client.post("/games", json={"name": "x", "policies": {"second_place": "count"}},
                    headers=gm)
    assert r.status_code == 422
    assert r.json()["detail"]["message"] == ("Classical has no policy called 'second_place': "
                                             "it has no policies to choose")


def test_policies_must_be_short_words(client: TestClient) -> None:
    gm = sign_up(client, "alice")
    r = client.post("/games", json={"name": "x", "variant": CW,
                                    "policies": {"second_place": "c" * 41}}, headers=gm)
    assert r.status_code == 422
    r = client.post("/games", json={"name": "x", "variant": CW, "policies": ["count"]},
                    headers=gm)
    assert r.status_code == 422


def test_the_catalogue_lists_each_variants_policies_its_own_reading_first(
        client: TestClient) -> None:
    catalogue = {v["id"]: v for v in client.get("/web/variants").json()["variants"]}
    assert catalogue["classical"]["policies"] == {}
    cw = catalogue[CW]["policies"]
    variant = load_variant(CW)
    assert set(cw) == set(variant.hooks.policies())
    for name, values in cw.items():
        assert values[0] == variant.policies[name]
        assert sorted(values) == sorted(variant.hooks.policies()[name])


def test_an_unknown_variant_says_where_variants_come_from(client: TestClient) -> None:
    gm = sign_up(client, "alice")
    r = client.post("/games", json={"name": "x", "variant": "nowhere"}, headers=gm)
    assert r.status_code == 422
    message = r.json()["detail"]["message"]
    assert message.startswith("there is no variant called 'nowhere' on this server; the "
                              "variants are classical, colonial_winters")
    assert VARIANTS_PATH_VARIABLE in message
    with pytest.raises(VariantError,
                       match=f"no variant called 'nowhere'.*{VARIANTS_PATH_VARIABLE}"):
        load_variant("nowhere")


def test_a_variant_without_policies_says_it_has_none() -> None:
    with pytest.raises(VariantError) as caught:
        Game("classical", policies={"second_place": "count"})
    assert "this variant has no policies to choose" in str(caught.value)
    assert "are: none" not in str(caught.value)


def test_the_setup_of_a_player_per_power_says_so() -> None:
    """A variant without setups of its own has the one where each player plays one power; it
    was named "Standard", which the create form showed as if it meant something more."""
    setup = load_variant(CW).setup()
    assert setup.name == "17 players, each playing one power"
