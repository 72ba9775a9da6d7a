import { definePlugin } from "../../core/endpoint.ts";
import airQuality from "./air-quality.ts";
import airports from "./airports.ts";
import arxiv from "./arxiv.ts";
import boe from "./boe.ts";
import carbon from "./carbon.ts";
import census from "./census.ts";
import chembl from "./chembl.ts";
import cities from "./cities.ts";
import countries from "./countries.ts";
import country from "./country.ts";
import currencies from "./currencies.ts";
import dialCode from "./dial-code.ts";
import dictionary from "./dictionary.ts";
import doaj from "./doaj.ts";
import drugEvents from "./drug-events.ts";
import earthquakes from "./earthquakes.ts";
import elevation from "./elevation.ts";
import energy from "./energy.ts";
import ensembl from "./ensembl.ts";
import eurostat from "./eurostat.ts";
import evChargers from "./ev-chargers.ts";
import fdaRecalls from "./fda-recalls.ts";
import federalRegister from "./federal-register.ts";
import food from "./food.ts";
import games from "./games.ts";
import geocode from "./geocode.ts";
import holidays from "./holidays.ts";
import ine from "./ine.ts";
import isbn from "./isbn.ts";
import kev from "./kev.ts";
import marine from "./marine.ts";
import moon from "./moon.ts";
import music from "./music.ts";
import nameStats from "./name-stats.ts";
import nass from "./nass.ts";
import newsWeb from "./news-web.ts";
import nihReporter from "./nih-reporter.ts";
import onThisDay from "./on-this-day.ts";
import orcid from "./orcid.ts";
import papers from "./papers.ts";
import patents from "./patents.ts";
import pdb from "./pdb.ts";
import pubchem from "./pubchem.ts";
import recalls from "./recalls.ts";
import ror from "./ror.ts";
import rxnorm from "./rxnorm.ts";
import rxterms from "./rxterms.ts";
import sports from "./sports.ts";
import sun from "./sun.ts";
import tides from "./tides.ts";
import timezone from "./timezone.ts";
import timezones from "./timezones.ts";
import treasury from "./treasury.ts";
import trials from "./trials.ts";
import tv from "./tv.ts";
import universities from "./universities.ts";
import usaspending from "./usaspending.ts";
import vin from "./vin.ts";
import water from "./water.ts";
import weatherHistoryCity from "./weather-history-city.ts";
import weatherHistory from "./weather-history.ts";
import weather from "./weather.ts";
import wikidata from "./wikidata.ts";
import wikipedia from "./wikipedia.ts";
import worldbank from "./worldbank.ts";
import zipcode from "./zipcode.ts";
import { publicdataUpstreams } from "./_upstreams.ts";

export default definePlugin({
  family: "publicdata",
  endpoints: [
    airQuality,
    airports,
    arxiv,
    boe,
    carbon,
    census,
    chembl,
    cities,
    countries,
    country,
    currencies,
    dialCode,
    dictionary,
    doaj,
    drugEvents,
    earthquakes,
    elevation,
    energy,
    ensembl,
    eurostat,
    evChargers,
    fdaRecalls,
    federalRegister,
    food,
    games,
    geocode,
    holidays,
    ine,
    isbn,
    kev,
    marine,
    moon,
    music,
    nameStats,
    nass,
    newsWeb,
    nihReporter,
    onThisDay,
    orcid,
    papers,
    patents,
    pdb,
    pubchem,
    recalls,
    ror,
    rxnorm,
    rxterms,
    sports,
    sun,
    tides,
    timezone,
    timezones,
    treasury,
    trials,
    tv,
    universities,
    usaspending,
    vin,
    water,
    weatherHistoryCity,
    weatherHistory,
    weather,
    wikidata,
    wikipedia,
    worldbank,
    zipcode,
  ],
  upstreams: publicdataUpstreams,
});
